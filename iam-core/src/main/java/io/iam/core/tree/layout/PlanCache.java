package io.iam.core.tree.layout;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;

/**
 * The plans {@link TreePlanner#next(TreeLayout, Collection)} made for one tree, kept so that a host
 * asking the same question again gets the same answer without planning again. A plan is a pure
 * function of the layout, the claims of the steps running beside it and the planner's settings, so
 * the cache holds the plans of the latest layout (the same object) and planner key, by the set of
 * running claims, and starts afresh when either changes. A host asks several times per memstore
 * flush (its back-pressure, whether a compaction is needed, the selection), and planning a tree of
 * hundreds of nodes each time took about a seventh of an HBase region server's CPU.
 *
 * <p>Thread-safe; two threads asking at once may both plan, and either answer is kept.
 */
public final class PlanCache<F> {

  private record Plans<F>(TreeLayout<F> layout, long plannerKey, Map<Set<Claim>, Optional<NodePlan<F>>> byRunning) {}

  private volatile Plans<F> plans;

  /**
   * The next step for {@code layout} beside the {@code running} steps, planned by {@code
   * planners.apply(plannerKey)} unless already planned for the same layout, key and claims.
   *
   * @param plannerKey what the planner depends on besides the layout (a host's cache size, say)
   */
  public Optional<NodePlan<F>> next(TreeLayout<F> layout, Collection<Claim> running, long plannerKey,
      LongFunction<TreePlanner> planners) {
    Plans<F> p = plans;
    if (p == null || p.layout() != layout || p.plannerKey() != plannerKey) {
      p = new Plans<>(layout, plannerKey, new ConcurrentHashMap<>());
      plans = p;
    }
    Set<Claim> key = Set.copyOf(running);
    Optional<NodePlan<F>> known = p.byRunning().get(key);
    if (known != null) {
      return known;
    }
    Optional<NodePlan<F>> plan = planners.apply(plannerKey).next(layout, running);
    p.byRunning().put(key, plan);
    return plan;
  }
}
