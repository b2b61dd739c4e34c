package io.iam.core.tree.iam;

import io.iam.core.tree.iam.FlushPlan.Action;
import io.iam.core.tree.iam.FlushPlan.Assignment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Plans the flush of a full node (paper §4.2.1, §4.2.2, §5.1). Pure and static.
 *
 * <p>A node with no children MOVEs; an on-disk node covering ≥ 2t children SPLITs at the first
 * key of its middle child; otherwise it FLUSHes its records into its children by disjoint, sorted
 * sub-ranges that together cover its range. Each child's action comes from the {@link Mode},
 * except that a leaf already holding ≥ C_t bytes is always merged and cut.
 *
 * <p>Leaf children: each child receives its own range (clipped to the parent's) plus the keys of
 * the gaps next to it; a gap between two leaves is cut at its midpoint (each key goes to the
 * closest child); keys before the first or after the last child go to that child. A leaf's range
 * only grows to cover the records it receives.
 *
 * <p>Internal children (the §4.2.1 range adjustment): the boundary between each pair of adjacent
 * children is chosen, left to right, so that the two cover numbers of grandchildren as even as
 * possible ("the key ranges of the two children are partitioned evenly"), and each internal child
 * takes its sub-range as its new range (the first and last child also keep any part of their
 * range outside the parent's). Where the boundary may go is limited by the records already
 * stored in the children; as a plan sees metadata only, the rule is:
 *
 * <ul>
 *   <li>a child holding records ({@code bytes > 0}) never loses any of its range, so a boundary
 *       next to it stays in the gap beside it — the gap is split between the two neighbours;
 *   <li>a child holding no records ({@code bytes == 0}: it has flushed into its own children
 *       since it last received data) may lose range to its neighbour, so its range shrinks toward
 *       balancing with the neighbour (the paper's "after the node {120, 225} flushes, the left
 *       endpoint of its range interval moves right"); it keeps a non-empty range.
 * </ul>
 *
 * The same shrink is also applied right after a node's own flush, by {@link #planShrink}: the
 * emptied node gives its neighbours of the same level the part of its range that evens out their
 * child counts (they grow, it shrinks; no key stored anywhere leaves its node's range).
 *
 * Among the allowed boundaries the planner takes, in order: one that cuts through no grandchild
 * (a grandchild under both children would get the flushes of both: a node that moved down
 * would be merged into by its old neighbour, which an even count had handed part of its range);
 * then the one minimising the difference of the two children's grandchild counts, then their
 * sum; then, between two adjacent children, the boundary where it already is, else the one
 * extending the child that covered fewer grandchildren before (the left one on a tie). The same
 * order places the boundaries of {@link #planShrink}. The right child's count is taken over its
 * current extent, so the balance is pairwise
 * and greedy, not a global optimum. Ranges stay disjoint and sorted, and every stored key stays
 * inside its node's range.
 *
 * <p>Preconditions (the caller's): the node's internal children are not full; the node is
 * {@code full} for level ≥ 1, or a memtable (level 0) whose range is its records' hull.
 */
public final class FlushPlanner {

  /**
   * Level-1 nodes take memtable flushes until they hold this many times C_t; then the next
   * memtable flush into them waits for their own flush, for a bounded time ({@link
   * #levelOneTakesMemtable}). The paper flushes only into children that
   * are not full; level 1 relaxes that the way RocksDB lets level 0 grow past its compaction
   * trigger before writes stop, so a full level-1 node waiting for its turn takes one more
   * memtable's share instead of stalling every writer.
   */
  public static final int LEVEL_ONE_HARD_LIMIT = 2;

  /**
   * A merge-and-cut cuts a full leaf into new leaves of C_t / {@value} (§4.2.1): in key order, a
   * new leaf closes once it holds that many bytes (between keys) and the last one takes the rest.
   * The one rule the embedded engine, the HBase engine and the tree simulator all cut by.
   */
  public static final int CUT_DIVISOR = 5;

  private FlushPlanner() {}

  /** Whether a level-1 node holding {@code bytes} must flush before it takes another memtable. */
  public static boolean atLevelOneHardLimit(long bytes, long capacity) {
    return bytes >= LEVEL_ONE_HARD_LIMIT * capacity;
  }

  /**
   * Whether a memtable flush that has waited {@code waitedNanos} may write its {@code shareBytes}
   * into a level-1 node holding {@code bytes}: below the hard limit at once; at it, once the flush
   * has waited {@code patienceNanos} for the node's own flush, if the share still fits the node's
   * file of {@code fileBytes} (else the append would become a merge of the whole node). The bound
   * caps how long writers stand still behind a full node whose flush itself waits for full
   * children; the node then flushes one share more.
   */
  public static boolean levelOneTakesMemtable(long bytes, long shareBytes, long capacity, long fileBytes,
      long waitedNanos, long patienceNanos) {
    return !atLevelOneHardLimit(bytes, capacity) || (waitedNanos >= patienceNanos && bytes + shareBytes <= fileBytes);
  }

  /** The plan for full node {@code full} of level 0 (the memtable) .. n−1. */
  public static FlushPlan plan(TreeShape shape, Node full, Mode mode) {
    checkLevel(shape, full);
    List<Node> children = shape.children(full);
    if (children.isEmpty()) {
      return FlushPlan.move(full);
    }
    if (full.level() >= 1 && children.size() >= 2 * shape.fanout()) {
      return FlushPlan.split(full, children.get(children.size() / 2).lo());
    }
    return FlushPlan.flush(full, assign(shape, full, children, mode));
  }

  /**
   * The plan for combining {@code node} (§4.2.3): a flush that destroys the node, so a MOVE when
   * it has no children, else a FLUSH; never a SPLIT.
   */
  public static FlushPlan planCombine(TreeShape shape, Node node, Mode mode) {
    checkLevel(shape, node);
    List<Node> children = shape.children(node);
    return children.isEmpty() ? FlushPlan.move(node) : FlushPlan.flush(node, assign(shape, node, children, mode));
  }

  /**
   * The range adjustment after {@code flushed} — an on-disk node of an internal level that holds
   * no records, having just flushed into its children — as the nodes whose ranges change, with
   * their new ranges (empty if none). Its boundary with each neighbour of its level moves into
   * its own range (never into the neighbour's, which may hold records) to the point where the two
   * cover numbers of children as even as possible, then as few in total, else stays; the
   * neighbour grows to the new boundary. The left boundary is placed first. {@code flushed} keeps
   * a non-empty range.
   */
  public static List<Node> planShrink(TreeShape shape, Node flushed) {
    int i = flushed.level();
    if (i < 1 || i >= shape.depth() || flushed.bytes() != 0) {
      throw new IllegalArgumentException("not an emptied internal node: " + flushed);
    }
    List<Node> level = shape.level(i);
    int at = level.indexOf(flushed);
    if (at < 0) {
      throw new IllegalArgumentException("not in the shape: " + flushed);
    }
    int grand = i + 1;
    Node left = at > 0 ? level.get(at - 1) : null;
    Node right = at + 1 < level.size() ? level.get(at + 1) : null;
    long lo = flushed.lo();
    long hi = flushed.hi();
    if (left != null) {
      // New boundary b in [lo, hi]: left becomes [left.lo, b − 1] (unchanged if b == lo).
      long best = lo;
      long[] bestScore = null;
      for (long b : cuts(shape, grand, lo, hi)) {
        long[] score = score(shape.overlapping(grand, left.lo(), b == lo ? left.hi() : b - 1),
            shape.overlapping(grand, b, hi));
        if (bestScore == null || less(score, bestScore)) {
          best = b;
          bestScore = score;
        }
      }
      lo = best;
    }
    if (right != null) {
      // New boundary b in [lo + 1, hi + 1]: right starts at b (unchanged if b == hi + 1).
      long best = hi + 1;
      long[] bestScore = null;
      List<Long> cuts = cuts(shape, grand, lo + 1, hi + 1);
      for (int j = cuts.size() - 1; j >= 0; j--) { // from no change downwards, so ties keep more
        long b = cuts.get(j);
        long[] score = score(shape.overlapping(grand, lo, b - 1),
            shape.overlapping(grand, b == hi + 1 ? right.lo() : b, right.hi()));
        if (bestScore == null || less(score, bestScore)) {
          best = b;
          bestScore = score;
        }
      }
      hi = best - 1;
    }
    List<Node> out = new ArrayList<>(3);
    if (left != null && lo != flushed.lo()) {
      out.add(new Node(left.id(), i, left.lo(), lo - 1, left.bytes(), left.sequences()));
    }
    if (lo != flushed.lo() || hi != flushed.hi()) {
      out.add(new Node(flushed.id(), i, lo, hi, 0, flushed.sequences()));
    }
    if (right != null && hi != flushed.hi()) {
      out.add(new Node(right.id(), i, hi + 1, right.hi(), right.bytes(), right.sequences()));
    }
    return out;
  }

  /** {@code from}, {@code to} and every start and end + 1 of a level-{@code grand} node between, sorted. */
  private static List<Long> cuts(TreeShape shape, int grand, long from, long to) {
    java.util.TreeSet<Long> set = new java.util.TreeSet<>();
    set.add(from);
    set.add(to);
    for (Node g : shape.overlapping(grand, from, to)) {
      if (g.lo() > from && g.lo() < to) {
        set.add(g.lo());
      }
      if (g.hi() < to && g.hi() + 1 > from) {
        set.add(g.hi() + 1);
      }
    }
    return new ArrayList<>(set);
  }

  /**
   * How good a boundary is between two neighbours whose ranges overlap the children {@code left}
   * and {@code right} (each sorted, the left range before the right one), lower being better,
   * compared in order: whether a child lies under both (at most one can; it would have two
   * parents, and both would flush into it), then how uneven the counts are, then their sum.
   */
  private static long[] score(List<Node> left, List<Node> right) {
    boolean shared = !left.isEmpty() && !right.isEmpty() && left.get(left.size() - 1).id() == right.get(0).id();
    return new long[] {shared ? 1 : 0, Math.abs(left.size() - right.size()), left.size() + right.size()};
  }

  private static boolean less(long[] a, long[] b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] != b[i]) {
        return a[i] < b[i];
      }
    }
    return false;
  }

  private static void checkLevel(TreeShape shape, Node node) {
    if (node.level() >= shape.depth()) {
      throw new IllegalArgumentException("a leaf-level node is never flushed: " + node);
    }
  }

  private static List<Assignment> assign(TreeShape shape, Node parent, List<Node> children, Mode mode) {
    int level = parent.level() + 1;
    boolean leaf = shape.isLeaf(level);
    List<Assignment> out = new ArrayList<>(children.size());
    long start = parent.lo();
    for (int j = 0; j < children.size(); j++) {
      Node child = children.get(j);
      long end = parent.hi();
      if (j + 1 < children.size()) {
        Node next = children.get(j + 1);
        long first = leaf ? closestSplit(child, next) : balancedSplit(shape, parent, start, child, next);
        end = Math.min(end, first - 1);
      }
      out.add(new Assignment(child, start, end, action(shape, child, leaf, mode)));
      start = end + 1;
    }
    return out;
  }

  /** The first key of the gap after leaf {@code a} that goes to leaf {@code b}: the closest child. */
  private static long closestSplit(Node a, Node b) {
    long gap = b.lo() - a.hi(); // ≥ 1, read unsigned
    return a.hi() + (gap >>> 1) + 1; // keys a.hi + d with d ≤ gap/2 are closer to a (ties to a)
  }

  /**
   * The boundary {@code b} between internal children {@code a} (whose sub-range starts at {@code
   * start}) and {@code b}: {@code a} gets {@code [start, b − 1]}, {@code next} gets {@code b..}.
   */
  private static long balancedSplit(TreeShape shape, Node parent, long start, Node a, Node next) {
    // Allowed: a keeps a non-empty sub-range and, if it holds records, its whole range; next
    // likewise. The boundary stays inside the parent's range.
    long min = start + 1;
    if (a.bytes() > 0) {
      min = Math.max(min, a.hi() + 1);
    }
    long max = Math.min(parent.hi(), next.bytes() > 0 ? next.lo() : next.hi());
    if (max < min) { // cannot happen for disjoint levels, kept as a guard: the old gap rule
      return next.lo();
    }
    int grand = next.level() + 1;
    long nextEnd = Math.max(next.hi(), min);
    List<Long> candidates = new ArrayList<>();
    candidates.add(min);
    candidates.add(max);
    for (Node g : shape.overlapping(grand, min, max)) {
      if (g.lo() > min && g.lo() <= max) {
        candidates.add(g.lo());
      }
      if (g.hi() < max && g.hi() + 1 > min) {
        candidates.add(g.hi() + 1);
      }
    }
    boolean extendLeft = shape.childCount(a) <= shape.childCount(next); // the old gap rule's choice
    boolean adjacent = a.hi() + 1 == next.lo(); // then a tie keeps the boundary where it is
    long best = 0;
    long[] bestScore = null;
    for (long b : candidates) {
      long[] score = score(shape.overlapping(grand, start, b - 1), shape.overlapping(grand, b, Math.max(b, nextEnd)));
      boolean tie = bestScore != null && Arrays.equals(score, bestScore);
      boolean better = bestScore == null || less(score, bestScore)
          || (tie && (adjacent ? b == next.lo() : extendLeft ? b > best : b < best));
      if (better) {
        best = b;
        bestScore = score;
      }
    }
    return best;
  }

  private static Action action(TreeShape shape, Node child, boolean leaf, Mode mode) {
    if (leaf && child.bytes() >= shape.capacity()) {
      return Action.MERGE_AND_CUT;
    }
    return mode.merges(child.level(), child.sequences()) ? Action.MERGE : Action.APPEND;
  }
}
