package io.iam.core.policy;

/**
 * What a policy decided: merge the contiguous components {@code from..to} (inclusive indexes into
 * the snapshot, 0 = oldest) into one, or nothing. A plan is a value; an executor makes it real.
 */
public final class MergePlan {

  private static final MergePlan NONE = new MergePlan(-1, -1);

  private final int from;
  private final int to;

  private MergePlan(int from, int to) {
    this.from = from;
    this.to = to;
  }

  /** The plan that merges nothing. */
  public static MergePlan none() {
    return NONE;
  }

  /** Merge components {@code from..to} inclusive; at least two of them. */
  public static MergePlan merge(int from, int to) {
    if (from < 0 || to <= from) {
      throw new IllegalArgumentException("a merge takes at least two components: " + from + ".." + to);
    }
    return new MergePlan(from, to);
  }

  /** Merge component {@code from} with every newer one in a stack of {@code size}, or nothing. */
  public static MergePlan suffix(int from, int size) {
    return from < size - 1 ? merge(Math.max(0, from), size - 1) : NONE;
  }

  public boolean isNone() {
    return this == NONE;
  }

  /** Index of the oldest component merged. Undefined for {@link #none()}. */
  public int from() {
    return from;
  }

  /** Index of the newest component merged (inclusive). Undefined for {@link #none()}. */
  public int to() {
    return to;
  }

  /** Number of components merged; 0 for {@link #none()}. */
  public int width() {
    return isNone() ? 0 : to - from + 1;
  }

  /** Component count after this plan runs on a stack of {@code size} components. */
  public int sizeAfter(int size) {
    return isNone() ? size : size - width() + 1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MergePlan p && p.from == from && p.to == to;
  }

  @Override
  public int hashCode() {
    return 31 * from + to;
  }

  @Override
  public String toString() {
    return isNone() ? "none" : "merge " + from + ".." + to;
  }
}
