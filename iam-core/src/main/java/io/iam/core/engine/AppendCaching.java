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
   * As soon as they are written ("forcibly cached"), if the m/k rule keeps them in memory; they go
   * into the block cache's protected pool ({@link io.iam.core.cache.PriorityBlockCache}), which
   * reads of the merging levels cannot evict, so a scan reads at most one uncached sequence per
   * level (docs/iam-tree.md, "The protected pool").
   */
  ON_WRITE
}
