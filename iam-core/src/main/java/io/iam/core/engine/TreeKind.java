package io.iam.core.engine;

/** The shape of the tree a store keeps its files in. */
public enum TreeKind {
  /** LevelDB/RocksDB-style leveled LSM: an L0 file-count trigger and a size ratio between levels. */
  LEVELED,
  /**
   * The IAM-tree (Gong, He, Gong, Lei, ICPP 2019, §5): a node tree that appends into the cached upper levels, merges
   * into the levels below the mixed level m, and at m appends until a node holds k sequences.
   */
  IAM,
  /** The LSA-tree (§4): the same node tree appending everywhere; only full leaves are merged. */
  LSA,
  /** The same node tree merging everywhere: a leveled LSM built from nodes, for comparison. */
  LSM_MERGE,
  /**
   * The LSbM-tree (Teng, Guo, Lee, Chen, Zhang, Ma, Zhang, ACM TOS 2018): the leveled tree plus a compaction buffer: files merged out of
   * C_i are kept as B_{i+1} so that hot reads keep hitting their cached blocks (docs/lsbm.md).
   */
  LSBM,
  /**
   * Min-Max (SSDBM 2021): flushed memtables go through a sorted write cache that evicts its most
   * compact window of keys as a bucket, written once and never merged; an interval tree over the
   * buckets' key ranges finds those a read must look at (docs/minmax.md).
   */
  MINMAX,
  /**
   * A stack of sorted runs on level 0, shaped by one of the kernel's stack policies
   * ({@code stack-policy}: leveling, tiering, binomial, …): each flush is merged with the runs the
   * policy names and written once (docs/stack.md).
   */
  STACK;

  /** Whether this tree is built from nodes (LSA/IAM/LSM-merge) rather than leveled files. */
  public boolean nodeTree() {
    return this == IAM || this == LSA || this == LSM_MERGE;
  }
}
