package io.iam.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.sim.Accounting;
import io.iam.core.sim.DecisionObserver;
import io.iam.core.sim.FlushStream;
import io.iam.core.sim.RandomFlushes;
import io.iam.core.sim.SeriesPoint;
import io.iam.core.sim.SimulationResult;
import io.iam.core.sim.Simulator;
import io.iam.core.sim.UniformFlushes;
import io.iam.core.sim.UpdateFlushes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Properties every depth-bounded policy must have, checked at every decision of seeded random
 * runs. A failure message names the policy, k, the stream (with its seed) and the flush.
 */
class PolicyPropertiesTest {

  private static final int[] KS = {1, 2, 3, 4, 5, 6, 7, 8, 10};
  private static final long FLUSHES = 3000;

  /**
   * Checks each decision: the stack the policy saw partitions flushes 1..t into contiguous runs
   * (stability), entered with at most k + 1 components, and the plan is in range and leaves at
   * most k. Counts the decisions in {@code count[0]}.
   */
  private static DecisionObserver checks(int bound, String where, long[] count) {
    return (s, p) -> {
      String at = where + " at flush " + s.flushCount();
      assertEquals(1, s.get(0).firstFlush(), at);
      for (int i = 1; i < s.size(); i++) {
        assertEquals(s.get(i - 1).lastFlush() + 1, s.get(i).firstFlush(), at + ": gap or overlap at " + i);
      }
      assertEquals(s.flushCount(), s.get(s.size() - 1).lastFlush(), at);
      assertTrue(s.size() <= bound + 1, at + ": stack entered the decision with " + s.size());
      if (!p.isNone()) {
        assertTrue(p.from() >= 0 && p.to() < s.size() && p.width() >= 2, at + ": bad plan " + p);
      }
      assertTrue(p.sizeAfter(s.size()) <= bound, at + ": " + p + " leaves " + p.sizeAfter(s.size()) + " > k=" + bound);
      count[0]++;
    };
  }

  private static List<Supplier<FlushStream>> streams(long seed) {
    return List.of(
        () -> new UniformFlushes(4 << 20),
        () -> new RandomFlushes(1 << 20, 8 << 20, seed),
        () -> new UpdateFlushes(64, 1024, 0.7, 0.99, seed));
  }

  @TestFactory
  Stream<DynamicTest> boundedPoliciesStayBoundedStableAndAmplifyAtLeastOnce() {
    List<DynamicTest> tests = new ArrayList<>();
    long seed = 20191;
    for (String name : List.of("constant", "bigtable", "exploring", "minlatency", "binomial")) {
      for (int k : KS) {
        for (Supplier<FlushStream> stream : streams(seed + k)) {
          tests.add(DynamicTest.dynamicTest(name + " k=" + k + " " + stream.get().describe(), () -> {
            MergePolicy policy = MergePolicies.create(name, Map.of("max-components", Integer.toString(k)));
            FlushStream s = stream.get();
            long[] decisions = {0};
            SimulationResult r = new Simulator(policy, s, Accounting.MODEL, 1, null)
                .observe(checks(k, name + " k=" + k + " [" + s.describe() + "]", decisions))
                .run(FLUSHES);
            assertEquals(FLUSHES, decisions[0]);
            assertTrue(r.maxComponents() <= k);
            for (SeriesPoint p : r.series()) {
              assertTrue(p.writeAmplification() >= 1.0, name + " write-amp < 1 at " + p);
            }
          }));
        }
      }
    }
    return tests.stream();
  }

  @Test
  void sizeTieredIsBoundedByItsTrigger() {
    for (int trigger : new int[] {2, 4, 8}) {
      MergePolicy policy = MergePolicies.create("size-tiered", Map.of("compaction-trigger", Integer.toString(trigger)));
      assertEquals(trigger, policy.maxComponents());
      SimulationResult r = new Simulator(policy, new RandomFlushes(1, 100, trigger), Accounting.MODEL, 100, null)
          .observe(checks(trigger, "size-tiered trigger=" + trigger, new long[1]))
          .run(FLUSHES);
      assertTrue(r.maxComponents() <= trigger);
    }
  }

  @Test
  void staticPoliciesDecideExactlyAsTheRecurrence() {
    for (int k : KS) {
      for (String name : List.of("minlatency", "binomial")) {
        MergePolicy policy = MergePolicies.create(name, Map.of("max-components", Integer.toString(k)));
        DecisionObserver bounded = checks(k, name, new long[1]);
        DecisionObserver compared = (s, actual) -> {
          bounded.decided(s, actual);
          long t = s.flushCount();
          int keep = name.equals("minlatency") ? PaperRecurrence.minLatencyKeep(k, t) : PaperRecurrence.binomialKeep(k, t);
          MergePlan expected = keep < s.size() ? MergePlan.merge(keep - 1, s.size() - 1) : MergePlan.none();
          assertEquals(expected, actual, name + " k=" + k + " t=" + t);
          // On the policy's own stack the schedule is always realizable: it leaves exactly keep.
          assertEquals(keep, actual.sizeAfter(s.size()), name + " k=" + k + " t=" + t);
        };
        new Simulator(policy, new RandomFlushes(1, 1000, k), Accounting.MODEL, 1000, null).observe(compared).run(2000);
      }
    }
  }

  @Test
  void minLatencyWriteAmplificationIsAtMostMOnItsTreeSizes() {
    int checked = 0;
    for (int k = 1; k <= 8; k++) {
      for (int m = 1; m <= 30; m++) {
        long n = StackMath.binomial(m + k, k) - 1;
        if (n > 300_000) {
          break;
        }
        MergePolicy policy = MergePolicies.create("minlatency", Map.of("max-components", Integer.toString(k)));
        SimulationResult r = new Simulator(policy, new UniformFlushes(1), Accounting.MODEL, n, null).run(n);
        assertTrue(r.writeAmplification() <= m + 1e-12,
            "minlatency k=" + k + " n=" + n + ": write-amp " + r.writeAmplification() + " > m=" + m);
        checked++;
      }
    }
    assertTrue(checked > 100, "too few (k, m) pairs checked: " + checked);
  }

  @Test
  void policiesWaitWhileAMergeRuns() {
    for (MergePolicies.Descriptor d : MergePolicies.all()) {
      MergePolicy policy = d.create(Map.of());
      List<Component> stack = new ArrayList<>();
      for (int i = 1; i <= 70; i++) {
        stack.add(new Component(i, 10, i, i, 1, i == 3));
      }
      assertTrue(policy.plan(StackSnapshot.of(stack, 70)).isNone(), d.name());
    }
  }
}
