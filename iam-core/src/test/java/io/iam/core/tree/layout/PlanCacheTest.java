package io.iam.core.tree.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.iam.core.tree.iam.Mode;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/** A plan is made once per layout, planner key and set of running claims, and equals the planner's. */
class PlanCacheTest {

  private final TreePlanner lsa = new TreePlanner(2, 100, d -> Mode.lsa());
  private final AtomicInteger planned = new AtomicInteger();
  private final LongFunction<TreePlanner> planners = key -> {
    planned.incrementAndGet();
    return lsa;
  };
  private final PlanCache<String> cache = new PlanCache<>();

  /** A plan as text, its targets' keys by value. */
  private static String describe(Optional<NodePlan<String>> plan) {
    return plan.map(p -> p.kind() + " " + p.inputs() + " " + p.targets().stream()
        .map(t -> t.node() + "@L" + t.level() + Arrays.toString(t.lo()) + Arrays.toString(t.hi())
            + Arrays.toString(t.lower()) + Arrays.toString(t.upper()) + t.keepIfEmpty() + t.cutBytes())
        .toList()).orElse("none");
  }

  @Test
  void theSameQuestionIsPlannedOnceAndAnsweredAsThePlannerWould() {
    TreeLayout<String> layout = TreePlannerTest.twoBusySubtrees();
    Optional<NodePlan<String>> first = cache.next(layout, List.of(), 7, planners);
    Optional<NodePlan<String>> again = cache.next(layout, List.of(), 7, planners);
    assertEquals(describe(lsa.next(layout)), describe(first));
    assertSame(first, again);
    assertEquals(1, planned.get());
  }

  @Test
  void otherRunningStepsAnotherLayoutOrAnotherKeyArePlannedAnew() {
    TreeLayout<String> layout = TreePlannerTest.twoBusySubtrees();
    NodePlan<String> deep = cache.next(layout, List.of(), 7, planners).orElseThrow();
    List<Claim> running = List.of(lsa.claim(layout, deep));
    Optional<NodePlan<String>> beside = cache.next(layout, running, 7, planners);
    assertEquals(2, planned.get());
    assertEquals(describe(lsa.next(layout, running)), describe(beside));
    assertNotEquals(describe(Optional.of(deep)), describe(beside), "a step beside the deep one is another step");
    assertSame(beside, cache.next(layout, running, 7, planners));
    assertSame(deep, cache.next(layout, List.of(), 7, planners).orElseThrow(), "both kept for this layout");
    assertEquals(2, planned.get());

    cache.next(layout, List.of(), 8, planners);
    assertEquals(3, planned.get(), "another planner key");
    TreeLayout<String> same = TreePlannerTest.twoBusySubtrees();
    assertEquals(describe(Optional.of(deep)), describe(cache.next(same, List.of(), 8, planners)));
    assertEquals(4, planned.get(), "another layout object");
  }
}
