package io.iam.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.option.InvalidOptionsException;
import io.iam.core.tree.iam.MkChooser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The iam-stack policy on hand-built stacks. Unless a test says otherwise: A = M/k = 100 bytes
 * for the appended tier, k = 3 boundary components, t = 10 (level 1, the boundary tier, up to
 * 1,000 bytes; level 2 up to 10,000; level 3 up to 100,000) and K = 8 components.
 */
class IamStackPolicyTest {

  private static final long A = 100;
  private static final int K_BOUNDARY = 3;

  private static MergePolicy policy(int maxComponents, int boundary) {
    return MergePolicies.create(IamStackPolicy.NAME, Map.of(
        "max-components", Integer.toString(maxComponents),
        "boundary-components", Integer.toString(boundary),
        "size-ratio", "10",
        "memory-budget", Long.toString(A * boundary)));
  }

  private static MergePolicy policy() {
    return policy(8, K_BOUNDARY);
  }

  private static StackSnapshot stack(long... sizes) {
    return Stacks.quiescent(sizes);
  }

  @Test
  void aFlushThatFitsTheAppendedTierIsOnlyAppended() {
    // level 2, boundary base, then appended 40 + 30 + 20 + the flush 10 = 100 <= A.
    assertTrue(policy().plan(stack(5000, 500, 40, 30, 20, 10)).isNone());
  }

  @Test
  void theFlushThatOverflowsTheAppendedTierMergesWithItAndJoinsTheBoundaryTier() {
    // 40 + 30 + 20 + 20 = 110 > A: the four become one component of 110, the boundary tier's
    // second (room for three), and the older components are left alone.
    MergePlan plan = policy().plan(stack(5000, 500, 40, 30, 20, 20));
    assertEquals(MergePlan.merge(2, 5), plan);
  }

  @Test
  void aFlushLargerThanTheAppendedTierJoinsTheBoundaryTierAsItIs() {
    assertTrue(policy().plan(stack(5000, 500, A + 50)).isNone());
  }

  @Test
  void theBoundaryTierMergesWhenItWouldHoldKPlusOne() {
    // The boundary tier holds 500, 120, 110 (k = 3); 40 + 30 + 35 = 105 leaves the appended tier
    // as a fourth, so all four merge: 835 bytes, still level 1, above the level-2 component.
    MergePlan plan = policy().plan(stack(5000, 500, 120, 110, 40, 30, 35));
    assertEquals(MergePlan.merge(1, 6), plan);
    // With one boundary component fewer, the newcomer fits: only the appended tier merges.
    assertEquals(MergePlan.merge(3, 5), policy().plan(stack(5000, 500, 110, 40, 30, 35)));
  }

  @Test
  void aBoundaryTierThatOutgrowsLevelOneMergesIntoTheLevelBelow() {
    // 800 + 110 + 105 + (60 + 50) = 1125 > t·A: level 2, where 5000 already is; both merge.
    assertEquals(MergePlan.merge(0, 5), policy().plan(stack(5000, 800, 110, 105, 60, 50)));
    // A level-3 component below (over t²·A) is deeper: the merge stops above it.
    assertEquals(MergePlan.merge(1, 5), policy().plan(stack(50_000, 800, 110, 105, 60, 50)));
  }

  @Test
  void mergingCascadesWhileTheFormedComponentReachesTheNextLevel() {
    // Level 2 at 9000 and level 3 at 95,000: the boundary merge (1125) joins 9000 (level 2),
    // 10,125 is level 3, so 95,000 joins too.
    assertEquals(MergePlan.merge(0, 6), policy().plan(stack(95_000, 9000, 800, 110, 105, 60, 50)));
    // Level 2 at 5000 instead: 6125 stays level 2 and the level-3 component is left alone.
    assertEquals(MergePlan.merge(1, 6), policy().plan(stack(95_000, 5000, 800, 110, 105, 60, 50)));
  }

  @Test
  void theDeepestLevelTakesEverythingLarger() {
    // K = 4, k = 2: levels stop at K − k = 2, so a component of any size is at most level 2.
    // The boundary merge (900 + 110 + 110 = 1120 > t·A: level 2) joins the deepest component,
    // however large that is.
    MergePolicy shallow = policy(4, 2);
    assertEquals(MergePlan.merge(0, 4),
        shallow.plan(stack(1_000_000, 900, 110, 60, 50)));
  }

  @Test
  void theDepthBoundMergesTheAppendedTierIntoOneThatStaysAppended() {
    // K = 4: a fifth component, although the appended tier (10 + 10 + 10) fits its bytes.
    MergePolicy shallow = policy(4, 2);
    MergePlan plan = shallow.plan(stack(5000, 500, 10, 10, 10));
    assertEquals(MergePlan.merge(2, 4), plan);
    assertEquals(3, plan.sizeAfter(5));
    // With room for it the same flush is only appended.
    assertTrue(policy().plan(stack(5000, 500, 10, 10, 10)).isNone());
  }

  @Test
  void aStackAnotherPolicyBuiltIsCutDownToK() {
    // Eight level-2 components and a flush that joins the boundary tier: nine, K = 8.
    MergePlan plan = policy().plan(stack(5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 500));
    assertEquals(8, plan.sizeAfter(9));
  }

  @Test
  void nothingIsPlannedWhileAComponentIsBeingMerged() {
    List<Component> components = new ArrayList<>();
    components.add(new Component(0, 5000, 1, 1, 1, true));
    for (int i = 1; i <= 9; i++) {
      components.add(Component.flushed(i, 60, i + 1));
    }
    assertTrue(policy().plan(StackSnapshot.of(components, 10)).isNone());
  }

  @Test
  void theAppendedShareIsTheOneTheIamTreesMkChooserPicks() {
    // Levels [A, t·A] (appended tier, boundary tier) and cache M: the IAM tree's chooser
    // (inequality (2)) makes level 2 the mixed level with cap k exactly when M >= k·A; so M/k is
    // the largest appended tier for which a policy with k boundary components fits M.
    long a = 1 << 20;
    for (int t : new int[] {2, 10}) {
      for (int k = 1; k <= t; k++) {
        long m = k * a;
        assertEquals(a, IamStackPolicy.appendBytes(m, k));
        assertEquals(new MkChooser.Choice(2, k), MkChooser.choose(new long[] {a, t * a}, m, t, 64, false),
            "t=" + t + " k=" + k);
        if (k > 1) {
          long larger = a + 1;
          assertEquals(new MkChooser.Choice(2, k - 1),
              MkChooser.choose(new long[] {larger, t * larger}, m, t, 64, false), "t=" + t + " k=" + k);
        }
      }
    }
  }

  @Test
  void optionErrorsNameTheKey() {
    InvalidOptionsException e = assertThrows(InvalidOptionsException.class,
        () -> MergePolicies.create(IamStackPolicy.NAME, Map.of("max-components", "4", "boundary-components", "4")));
    assertEquals(1, e.problems().size(), e.getMessage());
    assertTrue(e.getMessage().contains("boundary-components=4"), e.getMessage());
    assertTrue(e.getMessage().contains("max-components=4"), e.getMessage());

    e = assertThrows(InvalidOptionsException.class, () -> MergePolicies.create(IamStackPolicy.NAME,
        Map.of("size-ratio", "1", "memory-budget", "lots", "boundary-components", "0", "k", "3")));
    assertEquals(4, e.problems().size(), e.getMessage());
    String all = String.join("\n", e.problems());
    assertTrue(all.contains("size-ratio=1 is out of range: allowed 2 to 1000"), all);
    assertTrue(all.contains("memory-budget='lots' is not valid"), all);
    assertTrue(all.contains("boundary-components=0 is out of range: allowed 1 to 63"), all);
    assertTrue(all.contains("unknown option 'k'"), all);
  }

  @Test
  void optionsAreTypedAndMapToAsterixDbsParameterNames() {
    MergePolicy p = MergePolicies.create(IamStackPolicy.NAME,
        Map.of("max-components", "10", "boundary-components", "3", "size-ratio", "4", "memory-budget", "96MiB"));
    assertEquals(10, p.maxComponents());
    assertEquals(3, p.options().get(IamStackPolicy.BOUNDARY_COMPONENTS));
    assertEquals(4, p.options().get(IamStackPolicy.SIZE_RATIO));
    assertEquals(96L << 20, p.options().get(IamStackPolicy.MEMORY_BUDGET));
    assertEquals("num-components", PolicyOptions.MAX_COMPONENTS.asterixName());
    assertEquals("max-tolerance-component-count", IamStackPolicy.BOUNDARY_COMPONENTS.asterixName());
    assertEquals("size-ratio", IamStackPolicy.SIZE_RATIO.asterixName());
    assertEquals("max-mergable-component-size", IamStackPolicy.MEMORY_BUDGET.asterixName());
    assertTrue(MergePolicies.descriptor(IamStackPolicy.NAME).depthBounded());
  }
}
