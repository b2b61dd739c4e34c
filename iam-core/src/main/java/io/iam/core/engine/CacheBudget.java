package io.iam.core.engine;

/** How much of the block cache the IAM-tree's appended sequences may take (paper §5.1.3). */
public enum CacheBudget {
  /** All of it: Σ_{j<m} D_j + S_{m,k} ≤ M. */
  FULL,
  /** Half, leaving the rest to merged sequences: Σ_{j<m} D_j + S_{m,k} ≤ M/2. */
  HALF
}
