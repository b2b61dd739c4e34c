package io.iam.core.tree.iam;

import java.util.List;

/**
 * What to do with a full node; a value the executor makes real. Exactly one of:
 *
 * <ul>
 *   <li>{@link Kind#MOVE}: the node has no children and its records move to the next level by
 *       metadata only, as a new node there (a memtable, level 0, is written to level 1 as it
 *       is). The node itself stays on its level, emptied, with its range: N_{i+1} grows by one and
 *       N_i is unchanged (§4.2.1), so the records that later arrive in that range collect in it
 *       instead of widening its neighbours. A combined node leaves its level instead (§4.2.3); a
 *       combined node that holds no records simply disappears;
 *   <li>{@link Kind#SPLIT}: the node covers ≥ 2t children and is rewritten into two nodes of its
 *       level: {@code [lo, splitKey − 1]} holding its records below {@code splitKey} and {@code
 *       [splitKey, hi]} holding the rest, each covering half of the children;
 *   <li>{@link Kind#FLUSH}: the node's records are partitioned by the {@link Assignment}s, whose
 *       sub-ranges are disjoint, sorted, and together cover the node's range, and written into
 *       the children. The executor widens a leaf child's range to cover the records it receives,
 *       and gives an internal child its sub-range as its range (plus any part of its old range
 *       outside the flushed node's; see {@link FlushPlanner} for where the boundaries go); a
 *       sub-range overlaps no other node of the child level, so the level stays disjoint. The
 *       flushed node is emptied (kept with its range), or destroyed when the flush is a combine.
 * </ul>
 */
public record FlushPlan(Kind kind, Node node, long splitKey, List<Assignment> assignments) {

  /** The three kinds of plan. */
  public enum Kind { MOVE, SPLIT, FLUSH }

  /** How the records flushed into one child are written. */
  public enum Action {
    /** Add them to the child as one new sequence. */
    APPEND,
    /** Merge them with the child's sequences into one sequence. */
    MERGE,
    /** The child is a full leaf: merge and cut the result into new leaves of about C_t/5 each. */
    MERGE_AND_CUT
  }

  /** The records of {@code [lo, hi]} go into {@code child} by {@code action}. */
  public record Assignment(Node child, long lo, long hi, Action action) {}

  public FlushPlan {
    assignments = List.copyOf(assignments);
  }

  static FlushPlan move(Node node) {
    return new FlushPlan(Kind.MOVE, node, 0, List.of());
  }

  static FlushPlan split(Node node, long splitKey) {
    return new FlushPlan(Kind.SPLIT, node, splitKey, List.of());
  }

  static FlushPlan flush(Node node, List<Assignment> assignments) {
    return new FlushPlan(Kind.FLUSH, node, 0, assignments);
  }
}
