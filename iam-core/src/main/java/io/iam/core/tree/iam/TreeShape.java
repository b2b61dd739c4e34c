package io.iam.core.tree.iam;

import java.util.ArrayList;
import java.util.List;

/**
 * An immutable LSA/IAM tree shape: on-disk levels 1..n of nodes whose key ranges are disjoint and
 * sorted within each level (not necessarily contiguous), the fan-out t and the node capacity C_t.
 * Internal level i holds at most t^i nodes (once combines have run); the leaf level n fewer than
 * t^n. A node's children are the nodes of the next level whose ranges overlap its range.
 *
 * <p>The constructor checks the per-level ordering and disjointness and throws {@link
 * IllegalArgumentException} when they do not hold.
 */
public final class TreeShape {

  private final List<List<Node>> levels;
  private final int fanout;
  private final long capacity;

  /**
   * @param levels index 0 is level 1; each sorted by range with disjoint ranges; at least one level
   * @param fanout t ≥ 2
   * @param capacity C_t in bytes, ≥ 1
   */
  public TreeShape(List<List<Node>> levels, int fanout, long capacity) {
    if (levels.isEmpty() || fanout < 2 || capacity < 1) {
      throw new IllegalArgumentException("need >= 1 level, t >= 2, C_t >= 1");
    }
    List<List<Node>> copy = new ArrayList<>(levels.size());
    for (int i = 0; i < levels.size(); i++) {
      List<Node> level = List.copyOf(levels.get(i));
      for (int j = 0; j < level.size(); j++) {
        Node node = level.get(j);
        if (node.level() != i + 1) {
          throw new IllegalArgumentException("node " + node.id() + " says level " + node.level() + " but sits in " + (i + 1));
        }
        if (j > 0 && level.get(j - 1).hi() >= node.lo()) {
          throw new IllegalArgumentException("level " + (i + 1) + " ranges overlap or are unsorted at " + node);
        }
      }
      copy.add(level);
    }
    this.levels = List.copyOf(copy);
    this.fanout = fanout;
    this.capacity = capacity;
  }

  /** t, the fan-out. */
  public int fanout() {
    return fanout;
  }

  /** C_t, the node capacity in bytes. */
  public long capacity() {
    return capacity;
  }

  /** n, the number of on-disk levels; level n is the leaf level. */
  public int depth() {
    return levels.size();
  }

  /** The nodes of level {@code i} (1..n), sorted by range. */
  public List<Node> level(int i) {
    return levels.get(i - 1);
  }

  /** The node threshold of level i: t^i, saturating at {@link Long#MAX_VALUE}. */
  public long threshold(int i) {
    long v = 1;
    for (int j = 0; j < i; j++) {
      v = v > Long.MAX_VALUE / fanout ? Long.MAX_VALUE : v * fanout;
    }
    return v;
  }

  /** Whether level {@code i} is the leaf level n. */
  public boolean isLeaf(int i) {
    return i == depth();
  }

  /** Nodes of level {@code i} whose ranges overlap {@code [lo, hi]}, in key order; empty past n. */
  public List<Node> overlapping(int i, long lo, long hi) {
    if (i < 1 || i > depth()) {
      return List.of();
    }
    List<Node> level = level(i);
    int from = firstEndingAtOrAfter(level, lo);
    int to = from;
    while (to < level.size() && level.get(to).lo() <= hi) {
      to++;
    }
    return level.subList(from, to);
  }

  /** The children of {@code node}: the next level's nodes overlapping its range. */
  public List<Node> children(Node node) {
    return overlapping(node.level() + 1, node.lo(), node.hi());
  }

  /** The number of children {@code node} covers. */
  public int childCount(Node node) {
    return children(node).size();
  }

  private static int firstEndingAtOrAfter(List<Node> level, long key) {
    int lo = 0;
    int hi = level.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (level.get(mid).hi() < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
