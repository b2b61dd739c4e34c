package io.iam.core.engine;

/**
 * Which sequences of the IAM-tree the m/k rule keeps in memory (paper §5.1.3), in the block cache's
 * protected pool. Either way a scan meets at most one uncached sequence per level.
 */
public enum ProtectedSequences {
  /**
   * Every sequence of a node but its oldest, on every level: the appended sequences. The oldest
   * sequence of a node above the mixed level is left to the cache's LRU like a merged sequence,
   * and the room it would take goes to the mixed level's k and to nodes that move down without a
   * rewrite (docs/iam-tree.md, "Design decisions").
   */
  APPENDED,
  /**
   * The paper's rule: every sequence of the levels above the mixed level m, and the k − 1 newest of
   * each node at level m (plus the appended sequences of nodes that moved below m).
   */
  PAPER
}
