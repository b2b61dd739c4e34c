package io.iam.core.tree.iam;

import java.util.Optional;

/**
 * What an IAM-tree does next, in the one order the embedded engine ({@code NodeTree}), the
 * simulator ({@link TreeSimulator}) and the HBase store engine's planner ({@code TreePlanner})
 * follow: (1) once the leaf level is full ({@link Steps#leafLevelFull}: N_n ≥ t^n, §4.2.3) a level
 * is added, before any other step, so the full leaves take no merges meanwhile; (2) a host's own
 * first step, if it has one ({@link Steps#first}); (3) a full node flushes or splits, in {@link
 * FlushOrder}; (4) a host's own follow-up step ({@link Steps#afterFlushes}); (5) a node is combined
 * on a level with too many nodes. Pure: the host says, through {@link Steps}, whether each
 * candidate can start now and what starting it means (a background job, a compaction, or the
 * simulator applying it at once).
 *
 * <p>The level comes first everywhere. At 1,000,000 rows the embedded engine wrote 4.85–5.99 when
 * it waited for a moment when nothing ran, 5.08–5.10 with it first (docs/iam-tree.md, design
 * decisions). HBase's planner, whose leaf level also counts full by its bytes, wrote 4.31–4.80
 * over 13 runs with the level first, against 4.55–5.11 over 4 with it last (docs/hbase-engine.md).
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

    /**
     * Whether the leaf level is full, so a level must be added: by default once it holds t^n
     * nodes ({@link CombinePlanner#needsNewLevel}); a host may count it full sooner.
     */
    default boolean leafLevelFull(TreeShape shape) {
      return CombinePlanner.needsNewLevel(shape);
    }

    /** A step of the host's own that goes before the full nodes; none by default. */
    default Optional<T> first() {
      return Optional.empty();
    }

    /** A step of the host's own that goes after the full nodes, before a new level; none by default. */
    default Optional<T> afterFlushes() {
      return Optional.empty();
    }
  }

  private TreeScheduler() {}

  /**
   * The next step on {@code shape}, or empty when none can start.
   *
   * @param mayGrow whether the tree may get another level (a host's depth guard)
   * @param mode the mode plans are made in
   */
  public static <T> Optional<T> next(TreeShape shape, boolean mayGrow, Mode mode, Steps<T> steps) {
    if (mayGrow && steps.leafLevelFull(shape)) {
      return steps.addLevel();
    }
    Optional<T> step = steps.first();
    if (step.isEmpty()) {
      step = FlushOrder.first(shape, shape.depth() - 1, 1, mode, steps::flush);
    }
    if (step.isEmpty()) {
      step = steps.afterFlushes();
    }
    if (step.isPresent()) {
      return step;
    }
    Optional<Node> victim = CombinePlanner.pick(shape);
    return victim.isEmpty() ? Optional.empty()
        : steps.combine(victim.get(), FlushPlanner.planCombine(shape, victim.get(), mode));
  }
}
