package io.iam.core.policy;

import java.util.Arrays;
import java.util.List;

/**
 * An immutable picture of a store's components, ordered oldest first, taken right after a flush:
 * the newest component is the one that flush created. This is the only input a {@link
 * MergePolicy} gets.
 *
 * <p>Invariants checked on construction: components are in creation order and their flush ranges
 * do not overlap ({@code c[i].lastFlush < c[i+1].firstFlush}), and {@code flushCount} is at least
 * the newest component's {@code lastFlush}.
 */
public final class StackSnapshot {

  private final Component[] components;
  private final long flushCount;
  private final boolean anyMerging;

  private StackSnapshot(Component[] components, long flushCount) {
    this.components = components;
    this.flushCount = flushCount;
    boolean merging = false;
    for (int i = 0; i < components.length; i++) {
      Component c = components[i];
      merging |= c.merging();
      if (i > 0 && components[i - 1].lastFlush() >= c.firstFlush()) {
        throw new IllegalArgumentException(
            "components must be oldest first with disjoint flush ranges; at index " + i);
      }
    }
    if (components.length > 0 && flushCount < components[components.length - 1].lastFlush()) {
      throw new IllegalArgumentException(
          "flushCount " + flushCount + " is older than the newest component");
    }
    this.anyMerging = merging;
  }

  /**
   * A snapshot of {@code components} (oldest first) after {@code flushCount} flushes in total.
   * Static policies (MinLatency, Binomial) decide from {@code flushCount}; the others from sizes.
   */
  public static StackSnapshot of(List<Component> components, long flushCount) {
    return new StackSnapshot(components.toArray(new Component[0]), flushCount);
  }

  /** Like {@link #of(List, long)}, copying the first {@code count} entries of an array. */
  public static StackSnapshot of(Component[] components, int count, long flushCount) {
    return new StackSnapshot(Arrays.copyOf(components, count), flushCount);
  }

  /** Number of components, including the one just flushed. */
  public int size() {
    return components.length;
  }

  /** Component {@code i}, where 0 is the oldest. */
  public Component get(int i) {
    return components[i];
  }

  public long sizeBytes(int i) {
    return components[i].sizeBytes();
  }

  /** Number of flushes the store has seen, including the one that made the newest component. */
  public long flushCount() {
    return flushCount;
  }

  /** Whether any component is being merged already. */
  public boolean anyMerging() {
    return anyMerging;
  }

  /** Sum of the sizes of components {@code from..to}, inclusive. */
  public long sizeBytes(int from, int to) {
    long sum = 0;
    for (int i = from; i <= to; i++) {
      sum += components[i].sizeBytes();
    }
    return sum;
  }

  public List<Component> components() {
    return List.of(components);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("t=").append(flushCount).append(" [");
    for (int i = 0; i < components.length; i++) {
      sb.append(i == 0 ? "" : " ").append(components[i].sizeBytes());
      if (components[i].merging()) {
        sb.append('*');
      }
    }
    return sb.append(']').toString();
  }
}
