package io.iam.core.tree.iam;

/**
 * How flushes write into a child: the LSA-tree appends everywhere; the IAM-tree appends into
 * levels below {@code m} (the appending levels), at the mixed level {@code m} merges into a child
 * that already has {@code k} or more sequences and appends into the others, and merges into
 * every level after {@code m} (the merging levels); LSM_MERGE is the same tree merging everywhere
 * (IAM with m = 1, k = 1). A full leaf is always merged and cut, whatever the mode (§4.2.1).
 */
public record Mode(Kind kind, int m, int k) {

  /** The three families of flush behaviour. */
  public enum Kind { LSA, IAM, LSM_MERGE }

  public Mode {
    if (m < 1 || k < 1) {
      throw new IllegalArgumentException("need m >= 1 and k >= 1: m=" + m + " k=" + k);
    }
  }

  /** Append everywhere. */
  public static Mode lsa() {
    return new Mode(Kind.LSA, Integer.MAX_VALUE, 1);
  }

  /** IAM with mixed level {@code m} (1..n+1) and sequence cap {@code k} ≥ 1. */
  public static Mode iam(int m, int k) {
    return new Mode(Kind.IAM, m, k);
  }

  /** IAM with the chooser's answer. */
  public static Mode iam(MkChooser.Choice choice) {
    return iam(choice.m(), choice.k());
  }

  /** Merge everywhere. */
  public static Mode lsmMerge() {
    return new Mode(Kind.LSM_MERGE, 1, 1);
  }

  /**
   * Whether data flushed into a child of level {@code level} holding {@code sequences} sequences
   * merges with it (true) or is appended to it (false).
   */
  public boolean merges(int level, int sequences) {
    return switch (kind) {
      case LSA -> false;
      case LSM_MERGE -> true;
      case IAM -> level > m || (level == m && sequences >= k);
    };
  }

  /**
   * The most sequences a node of {@code level} may hold in this mode: any number on appending
   * levels (and everywhere in the LSA-tree), k at the mixed level, one on merging levels (and
   * everywhere in LSM-merge). A node moved down by a metadata change that holds more keeps them
   * only if the cache can hold every one but its oldest until its next merge; otherwise it is
   * rewritten as one sequence, so that a scan meets at most one uncached sequence per level.
   */
  public int maxSequences(int level) {
    return switch (kind) {
      case LSA -> Integer.MAX_VALUE;
      case LSM_MERGE -> 1;
      case IAM -> level < m ? Integer.MAX_VALUE : level == m ? k : 1;
    };
  }
}
