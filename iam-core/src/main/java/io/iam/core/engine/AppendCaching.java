package io.iam.core.engine;

/**
 * When the IAM-tree's appended sequences enter the block cache (paper §5.1.3, which offers both).
 */
public enum AppendCaching {
  /**
   * When they are read, like every other block: the common LRU strategy, in which hotter data is
   * preferred. Writes pay nothing extra.
   */
  ON_READ,
  /**
   * As soon as they are written ("forcibly cached"), so a scan reads at most one uncached sequence
   * per node as long as they stay there; copying the blocks costs the load about a sixth of its
   * rate (docs/iam-tree.md).
   */
  ON_WRITE
}
