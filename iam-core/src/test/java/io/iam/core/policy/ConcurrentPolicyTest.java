package io.iam.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AsterixDB's Concurrent policy: the oldest window within the size ratio, between C and D components. */
class ConcurrentPolicyTest {

  private static MergePolicy policy(Map<String, String> options) {
    return MergePolicies.descriptor(ConcurrentPolicy.NAME).create(options);
  }

  private static StackSnapshot stack(long... sizes) {
    return Stacks.quiescent(sizes);
  }

  @Test
  void fewerThanTheMinimumNeverMerge() {
    assertTrue(policy(Map.of()).plan(stack(10, 10)).isNone());
    assertEquals(MergePlan.merge(0, 2), policy(Map.of()).plan(stack(10, 10, 10)));
  }

  @Test
  void anOldComponentLargerThanTheRatioTimesTheNewerOnesIsLeftAndTheNextOldestTried() {
    // 30 > 1.2 × (10 + 10): the window from 30 does not merge, and 10, 10 are too few on their own.
    assertTrue(policy(Map.of()).plan(stack(30, 10, 10)).isNone());
    // 30 <= 1.2 × 30: the window from 30 merges.
    assertEquals(MergePlan.merge(0, 3), policy(Map.of()).plan(stack(30, 10, 10, 10)));
    // 100 never fits; the window from the first 10 does.
    assertEquals(MergePlan.merge(1, 4), policy(Map.of()).plan(stack(100, 10, 10, 10, 10)));
  }

  @Test
  void aWindowTakesAtMostTheMaximumComponentsCountedFromItsOldest() {
    MergePolicy p = policy(Map.of("max-merge", "3"));
    // The window from the oldest holds it and the two after it, not the newest ones.
    assertEquals(MergePlan.merge(0, 2), p.plan(stack(10, 10, 10, 10, 10)));
    // 25 > 1.2 × (10 + 10) in its window of three, though not against all four newer ones.
    assertEquals(MergePlan.merge(1, 3), p.plan(stack(25, 10, 10, 10, 10)));
  }

  @Test
  void theComponentCountBoundChangesNoDecision() {
    StackSnapshot s = stack(40, 10, 10, 10);
    assertEquals(policy(Map.of()).plan(s), policy(Map.of("max-component-count", "2")).plan(s));
  }

  @Test
  void aRunOfEqualFlushesKeepsFewComponents() {
    MergePolicy p = policy(Map.of());
    List<Long> sizes = new ArrayList<>();
    int most = 0;
    for (int f = 0; f < 1000; f++) {
      sizes.add(1L);
      while (true) {
        MergePlan plan = p.plan(stack(sizes.stream().mapToLong(Long::longValue).toArray()));
        if (plan.isNone()) {
          break;
        }
        long merged = 0;
        for (int i = plan.to(); i >= plan.from(); i--) {
          merged += sizes.remove(i);
        }
        sizes.add(plan.from(), merged);
      }
      most = Math.max(most, sizes.size());
    }
    assertEquals(1000, sizes.stream().mapToLong(Long::longValue).sum());
    assertTrue(most < 30, "components: " + most);
  }
}
