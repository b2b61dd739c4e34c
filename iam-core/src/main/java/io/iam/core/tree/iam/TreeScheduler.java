package io.iam.core.tree.iam;

import java.util.Optional;

/**
 * What an IAM-tree does next, in the one order the embedded engine ({@code NodeTree}), the
 * simulator ({@link TreeSimulator}) and the HBase store engine's planner ({@code TreePlanner})
 * follow: (1) a host's own first step, if it has one ({@link Steps#first}); (2) a full node flushes
 * or splits, in {@link FlushOrder}; (3) a host's own follow-up step ({@link Steps#afterFlushes});
 * (4) once the leaf level is full (N_n ≥ t^n, §4.2.3) a level is added; (5) a node is combined on a
 * level with too many nodes. Where a host adds the level is its one explicit choice,
 * {@link NewLevel}. Pure: the host says, through {@link Steps}, whether each candidate can start
 * now and what starting it means (a background job, a compaction, or the simulator applying it at
 * once).
 */
public final class TreeScheduler {

  /** When a full leaf level gets a level below it. */
  public enum NewLevel {
    /**
     * Before any other step, so the full leaves take no merges meanwhile: the embedded engine and
     * the simulator. At 1,000,000 rows the embedded engine wrote 4.85–5.99 when the level waited for
     * a moment when nothing ran, 5.08–5.10 with it first (docs/iam-tree.md, design decisions).
     */
    FIRST,
    /**
     * Only when no node has a step to run: HBase's planner, whose steps run side by side with
     * memstore flushes landing in level 1 meanwhile. There, adding the level first wrote 4.96, 4.63
     * and 4.88 against 4.32, 4.65 and 4.76 (1,000,000 rows, docs/hbase-engine.md).
     */
    WHEN_NOTHING_ELSE
  }

  /** What starting each kind of step means to the host. */
  public interface Steps<T> {

    /** Adds a level; empty if it cannot now, and then nothing else starts either. */
    Optional<T> addLevel();

    /** Starts the flush (or split, or move) {@code plan} of full node {@code node}; empty if it cannot now. */
    Optional<T> flush(Node node, FlushPlan plan);

    /** Starts combining {@code victim} by {@code plan}; empty if it cannot now. */
    Optional<T> combine(Node victim, FlushPlan plan);

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
   * @param newLevel where in the order a new level comes
   */
  public static <T> Optional<T> next(TreeShape shape, boolean mayGrow, Mode mode, NewLevel newLevel, Steps<T> steps) {
    boolean grow = mayGrow && CombinePlanner.needsNewLevel(shape);
    if (grow && newLevel == NewLevel.FIRST) {
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
    if (grow) {
      return steps.addLevel();
    }
    Optional<Node> victim = CombinePlanner.pick(shape);
    return victim.isEmpty() ? Optional.empty()
        : steps.combine(victim.get(), FlushPlanner.planCombine(shape, victim.get(), mode));
  }
}
