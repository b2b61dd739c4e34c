package io.iam.core.tree.iam;

import io.iam.core.tree.iam.FlushPlan.Action;
import io.iam.core.tree.iam.FlushPlan.Assignment;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans the flush of a full node (paper §4.2.1, §4.2.2, §5.1). Pure and static.
 *
 * <p>A node with no children MOVEs; an on-disk node covering ≥ 2t children SPLITs at the first
 * key of its middle child; otherwise it FLUSHes: each child receives its own range (clipped to the
 * parent's) plus the keys of the gaps next to it. A gap between two leaf children is cut at its
 * midpoint (each key goes to the closest child); a gap between two internal children goes whole
 * to the one covering fewer children (the left one on a tie); keys before the first or after the
 * last child go to that child. Each child's action comes from the {@link Mode}, except that a
 * leaf already holding ≥ C_t bytes is always merged and cut.
 *
 * <p>Left out: the paper also moves the boundaries between neighbouring children so their child
 * counts even out ("adjust ranges to balance children counts"); here a child's range only grows
 * to cover the records it receives, and balance comes from splits and combines alone.
 *
 * <p>Preconditions (the caller's): the node's internal children are not full; the node is
 * {@code full} for level ≥ 1, or a memtable (level 0) whose range is its records' hull.
 */
public final class FlushPlanner {

  private FlushPlanner() {}

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
        end = Math.min(end, firstKeyOfNext(shape, child, next, leaf) - 1);
      }
      out.add(new Assignment(child, start, end, action(shape, child, leaf, mode)));
      start = end + 1;
    }
    return out;
  }

  /** The first key of the gap after {@code a} that goes to {@code b}. */
  private static long firstKeyOfNext(TreeShape shape, Node a, Node b, boolean leaf) {
    if (leaf) {
      long gap = b.lo() - a.hi(); // ≥ 1, read unsigned
      return a.hi() + (gap >>> 1) + 1; // keys a.hi + d with d ≤ gap/2 are closer to a (ties to a)
    }
    return shape.childCount(a) <= shape.childCount(b) ? b.lo() : a.hi() + 1;
  }

  private static Action action(TreeShape shape, Node child, boolean leaf, Mode mode) {
    if (leaf && child.bytes() >= shape.capacity()) {
      return Action.MERGE_AND_CUT;
    }
    return mode.merges(child.level(), child.sequences()) ? Action.MERGE : Action.APPEND;
  }
}
