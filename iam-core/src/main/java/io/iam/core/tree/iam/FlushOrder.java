package io.iam.core.tree.iam;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The order in which an IAM-tree flushes its full nodes: the one rule the embedded engine
 * ({@code NodeTree}), the HBase store engine's planner ({@code TreePlanner}) and the simulator
 * ({@link TreeSimulator}) follow. Levels from the deepest asked for up; within a level, full nodes
 * (holding at least C_t) the fullest first. A node whose flush would push records into internal
 * children that are full cannot flush yet (§4.2.1): its full children go first, the fullest first,
 * and so on down. Deepest first keeps the lower levels drained, so a flush is rarely blocked by a
 * full child. Pure.
 */
public final class FlushOrder {

  private FlushOrder() {}

  /**
   * The first full node of levels {@code deepest} down to {@code shallowest}, in this order, that
   * {@code start} takes: it gets each candidate with its plan (made in {@code mode}) and returns a
   * job, or empty if the node cannot start now (it is busy, say); the walk then goes on.
   */
  public static <T> Optional<T> first(TreeShape shape, int deepest, int shallowest, Mode mode,
      BiFunction<Node, FlushPlan, Optional<T>> start) {
    for (int level = deepest; level >= shallowest; level--) {
      for (Node n : fullest(shape, shape.level(level))) {
        Optional<T> job = unblocking(shape, n, mode, start);
        if (job.isPresent()) {
          return job;
        }
      }
    }
    return Optional.empty();
  }

  /** Node {@code n}'s flush, or if full internal children block it, the first of theirs that starts. */
  private static <T> Optional<T> unblocking(TreeShape shape, Node n, Mode mode,
      BiFunction<Node, FlushPlan, Optional<T>> start) {
    FlushPlan plan = FlushPlanner.plan(shape, n, mode);
    if (plan.kind() == FlushPlan.Kind.FLUSH && !shape.isLeaf(n.level() + 1)) {
      List<Node> blockers = fullest(shape, shape.children(n));
      if (!blockers.isEmpty()) {
        for (Node c : blockers) {
          Optional<T> job = unblocking(shape, c, mode, start);
          if (job.isPresent()) {
            return job;
          }
        }
        return Optional.empty();
      }
    }
    return start.apply(n, plan);
  }

  /** The full nodes of {@code nodes}, the fullest first (stable: equal fills keep key order). */
  static List<Node> fullest(TreeShape shape, List<Node> nodes) {
    List<Node> full = new ArrayList<>();
    for (Node n : nodes) {
      if (n.bytes() >= shape.capacity()) {
        full.add(n);
      }
    }
    full.sort(Comparator.comparingLong(Node::bytes).reversed());
    return full;
  }
}
