package io.iam.core.tree.iam;

import java.util.Optional;

/**
 * What an IAM-tree does next, in the one order the embedded engine ({@code NodeTree}) and the
 * simulator ({@link TreeSimulator}) follow: (1) once the leaf level is full (N_n ≥ t^n, §4.2.3) a
 * level is added, before anything else, so the full leaves take no merges meanwhile; (2) a full
 * node flushes or splits, in {@link FlushOrder}; (3) a node is combined on a level with too many
 * nodes. Pure: the host says, through {@link Steps}, whether each candidate can start now and
 * what starting it means (a background job, or the simulator applying it at once). The HBase
 * store engine's planner uses {@link FlushOrder} for step (2) and adds steps of its own host
 * around it (adopting unplaced files, level 1 first under pressure, follow-ups of memstore flushes
 * that appended).
 */
public final class TreeScheduler {

  /** What starting each kind of step means to the host. */
  public interface Steps<T> {

    /** Adds a level; empty if it cannot now, and then nothing else starts either. */
    Optional<T> addLevel();

    /** Starts the flush (or split, or move) {@code plan} of full node {@code node}; empty if it cannot now. */
    Optional<T> flush(Node node, FlushPlan plan);

    /** Starts combining {@code victim} by {@code plan}; empty if it cannot now. */
    Optional<T> combine(Node victim, FlushPlan plan);
  }

  private TreeScheduler() {}

  /**
   * The next step on {@code shape}, or empty when none can start.
   *
   * @param mayGrow whether the tree may get another level (a host's depth guard)
   * @param mode the mode plans are made in
   */
  public static <T> Optional<T> next(TreeShape shape, boolean mayGrow, Mode mode, Steps<T> steps) {
    if (mayGrow && CombinePlanner.needsNewLevel(shape)) {
      return steps.addLevel();
    }
    Optional<T> flush = FlushOrder.first(shape, shape.depth() - 1, 1, mode, steps::flush);
    if (flush.isPresent()) {
      return flush;
    }
    Optional<Node> victim = CombinePlanner.pick(shape);
    return victim.isEmpty() ? Optional.empty()
        : steps.combine(victim.get(), FlushPlanner.planCombine(shape, victim.get(), mode));
  }
}
