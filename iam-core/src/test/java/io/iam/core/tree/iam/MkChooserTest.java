package io.iam.core.tree.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.tree.iam.MkChooser.Choice;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MkChooserTest {

  private static final long[] D = {10, 100, 1000};

  @Test
  void handComputedAtTwoHundred() {
    // t = 10, M = 200. m=1: Σ=0 fits. m=2: Σ=10 fits. m=3: Σ=10+100=110 ≤ 200 fits.
    // m=4 (= n+1): Σ=1110 > 200, no. So m = 3; S_{3,k} = 1000·(k−1)/10 = 100(k−1):
    // k=1: 110 ≤ 200; k=2: 210 > 200. So (3, 1).
    assertEquals(new Choice(3, 1), MkChooser.choose(D, 200, 10, 10, false));
  }

  @Test
  void handComputedAtThreeHundredAndTen() {
    // m = 3 again (110 ≤ 310, 1110 > 310); k=2: 110+100 = 210; k=3: 310 ≤ 310 (equality fits);
    // k=4: 410 > 310. So (3, 3).
    assertEquals(new Choice(3, 3), MkChooser.choose(D, 310, 10, 10, false));
  }

  @Test
  void secondLevelCappedByKMax() {
    // M = 100: m=3 needs Σ=110 > 100, so m = 2 with Σ=10; S_{2,k} = 100(k−1)/10 = 10(k−1):
    // 10 + 10(k−1) ≤ 100 ⇔ k ≤ 10. With k_max = 4 the cap wins: (2, 4); with k_max = 10: (2, 10).
    assertEquals(new Choice(2, 4), MkChooser.choose(D, 100, 10, 4, false));
    assertEquals(new Choice(2, 10), MkChooser.choose(D, 100, 10, 10, false));
    // M = 99: 10 + 10(k−1) ≤ 99 ⇔ k ≤ 9.9 → (2, 9).
    assertEquals(new Choice(2, 9), MkChooser.choose(D, 99, 10, 10, false));
  }

  @Test
  void halfMemoryHalvesTheBudget() {
    // M = 620 halved is 310: the (3, 3) case above. Whole, 620: k=6 gives 110+500 = 610 ≤ 620, k=7 710 > 620.
    assertEquals(new Choice(3, 3), MkChooser.choose(D, 620, 10, 10, true));
    assertEquals(new Choice(3, 6), MkChooser.choose(D, 620, 10, 10, false));
  }

  @Test
  void edges() {
    assertEquals(new Choice(1, 1), MkChooser.choose(D, 0, 10, 10, false));
    assertEquals(new Choice(1, 1), MkChooser.choose(D, 0, 10, 10, true));
    // M covers every level: m = n+1 and k is reported as 1.
    assertEquals(new Choice(4, 1), MkChooser.choose(D, 1110, 10, 10, false));
    assertEquals(new Choice(4, 1), MkChooser.choose(D, Long.MAX_VALUE, 10, 10, true));
    // An empty tree: n = 0, m = n+1 = 1.
    assertEquals(new Choice(1, 1), MkChooser.choose(new long[0], 0, 10, 10, false));
    // M = 0 with an empty L1: Σ_{j<2} = 0 ≤ 0, so m = 2; S_{2,k} = 5(k−1)/10 > 0 for k ≥ 2, so k = 1.
    assertEquals(new Choice(2, 1), MkChooser.choose(new long[] {0, 5}, 0, 10, 10, false));
  }

  @Test
  void moreMemoryNeverLowersTheChoice() {
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 200; trial++) {
      int n = 1 + random.nextInt(5);
      long[] d = new long[n];
      for (int i = 0; i < n; i++) {
        d[i] = random.nextLong(1, 1_000_000);
      }
      int t = 2 + random.nextInt(15);
      boolean half = random.nextBoolean();
      Choice previous = MkChooser.choose(d, 0, t, 10, half);
      for (long m = 1; m < 4_000_000; m += random.nextLong(1, 50_000)) {
        Choice c = MkChooser.choose(d, m, t, 10, half);
        assertTrue(c.m() > previous.m() || (c.m() == previous.m() && c.k() >= previous.k()),
            previous + " then " + c + " at M=" + m);
        previous = c;
      }
    }
  }

  private static MkChooser.LevelShape level(long bytes, long nodes, long appendedBytes, long appendedSequences) {
    return new MkChooser.LevelShape(bytes, nodes, appendedBytes, appendedSequences);
  }

  /** The measured choice with t = 10, k_max = 10, all of M, C_t = 100 and no headroom. */
  private static Choice measured(List<MkChooser.LevelShape> levels, long cacheBytes) {
    return MkChooser.chooseMeasured(levels, cacheBytes, 10, 10, false, 100, 0);
  }

  /** L1 10 B in 1 node, L2 100 B in 10, L3 1000 B in 40 nodes holding {@code appended} B in {@code sequences}. */
  private static List<MkChooser.LevelShape> threeLevels(long appended, long sequences) {
    return List.of(level(10, 1, 0, 0), level(100, 10, 0, 0), level(1000, 40, appended, sequences));
  }

  @Test
  void measuredHandComputed() {
    // C_t = 100, t = 10: a_m is at least 10. Levels: L1 10 B, L2 100 B, L3 1000 B in 40 nodes.
    // m = 4 needs 1110 > 300; m = 3 needs 110 ≤ 300. S_{3,k} = 40·(k−1)/2·10 = 200(k−1):
    // k = 2: 310 > 300, so (3, 1). With M = 310: (3, 2). D_3/t = 100 per k in formula (1) would give k = 3.
    List<MkChooser.LevelShape> d = threeLevels(0, 0);
    assertEquals(new Choice(3, 1), measured(d, 300));
    assertEquals(new Choice(3, 2), measured(d, 310));
    assertEquals(new Choice(3, 3), MkChooser.choose(new long[] {10, 100, 1000}, 310, 10, 10, false));
  }

  @Test
  void measuredUsesLargerAppendedSequencesAndCountsMovedOnesBelow() {
    // L3's appended sequences average 20 B (> C_t/t = 10): S_{3,k} = 40·(k−1)/2·20 = 400(k−1).
    // L4 holds 50 B of appended sequences in moved nodes, counted for every m < 4.
    // Fixed part at m = 3: 110 + 50 = 160. M = 560: k = 2 (560), k = 3 (960) no → (3, 2).
    List<MkChooser.LevelShape> d = List.of(level(10, 1, 0, 0), level(100, 10, 0, 0), level(1000, 40, 200, 10),
        level(5000, 100, 50, 2));
    assertEquals(new Choice(3, 2), measured(d, 560));
    assertEquals(new Choice(3, 1), measured(d, 559));
    // Half the memory: M = 1120 behaves as 560.
    assertEquals(new Choice(3, 2), MkChooser.chooseMeasured(d, 1120, 10, 10, true, 100, 0));
    // At M = 159 no m fits: m = 3 needs 110 + A_3 + A_4 = 360, m = 2 needs 10 + 250 = 260, m = 1
    // needs 250. m = 1 is the fallback, with k = 1.
    assertEquals(new Choice(1, 1), measured(d, 159));
  }

  @Test
  void measuredCapsKWhileTheLevelHoldsTooMuch() {
    // As measuredHandComputed at M = 310 → (3, 2), but L3 now holds 190 B of appended sequences in
    // 100 of them (over 40 nodes, 3.5 sequences each on average): 110 + 190 = 300 > 0.95 · 310,
    // so k goes one step lower, to 1.
    List<MkChooser.LevelShape> d = threeLevels(190, 100);
    // a_3 = max(10, 1.9) = 10, so the estimate is as before.
    assertEquals(new Choice(3, 1), measured(d, 310));
    // With M = 1000 and L3 holding 870 B in 60 appended sequences: m = 3 fits (110 + 870 = 980),
    // a_3 = 14.5, the estimate 110 + 40(k−1)/2·14.5 ≤ 1000 gives k = 4; holding 980 > 950, k goes
    // to 3.
    List<MkChooser.LevelShape> full = threeLevels(870, 60);
    assertEquals(new Choice(3, 3), measured(full, 1000));
    // Holding 110 + 800 = 910 ≤ 950: no cap. a_3 = 800/60 = 13.3: 110 + 40(k−1)/2·13.3 ≤ 1000 → k = 4.
    // (With the cap it would have been 3: the cap is what the previous case shows.)
    List<MkChooser.LevelShape> under = threeLevels(800, 60);
    assertEquals(new Choice(3, 4), measured(under, 1000));
    // One step, not down to the mean: L3 holds 800 B in 80 appended sequences over 40 nodes (3
    // sequences per node on average), a_3 = 10. At M = 950 the estimate 110 + 40(k−1)/2·10 ≤ 950
    // gives k = 5; holding 110 + 800 = 910 > 902.5, k goes to 4 (capping at the mean gave 3).
    List<MkChooser.LevelShape> many = threeLevels(800, 80);
    assertEquals(new Choice(3, 4), measured(many, 950));
    assertEquals(new Choice(3, 5), measured(many, 970)); // 910 ≤ 921.5: no cap
  }

  @Test
  void measuredCountsWhatTheMixedLevelHoldsNow() {
    // L3 still holds 250 B of appended sequences from a larger k. At M = 310, m = 3 would promise
    // the cache 110 B for levels 1–2 and nothing for L3 at k = 1, while L3's sequences take 250:
    // 360 > 310. So m = 2: 10 + 250 = 260 fits, and S_{2,k} = 10·(k−1)/2·10 = 50(k−1) gives k = 2
    // (310). Not counting A_3, the choice was (3, 1), holding 360.
    assertEquals(new Choice(2, 2), measured(threeLevels(250, 25), 310));
    // L3 holding 960 B at M = 1000: 110 + 960 > 1000, so m = 2 (10 + 960 = 970); k = 2 needs
    // 970 + 50 = 1020 > 1000, so k = 1.
    assertEquals(new Choice(2, 1), measured(threeLevels(960, 60), 1000));
  }

  @Test
  void measuredKeepsTheHeadroomFree() {
    // measuredHandComputed's levels: (3, 2) at M = 310; 10 B of headroom leave 300, so (3, 1).
    List<MkChooser.LevelShape> d = threeLevels(0, 0);
    assertEquals(new Choice(3, 2), measured(d, 310));
    assertEquals(new Choice(3, 1), MkChooser.chooseMeasured(d, 310, 10, 10, false, 100, 10));
    // Half the memory takes the headroom from M/2: 620 / 2 − 10 = 300.
    assertEquals(new Choice(3, 1), MkChooser.chooseMeasured(d, 620, 10, 10, true, 100, 10));
    // Headroom beyond the cache leaves nothing: only m = 1 fits an empty budget.
    assertEquals(new Choice(1, 1), MkChooser.chooseMeasured(d, 310, 10, 10, false, 100, 400));
    assertThrows(IllegalArgumentException.class, () -> MkChooser.chooseMeasured(d, 310, 10, 10, false, 100, -1));
  }

  /** L1 10 B with 4 appended, L2 100 B in 10 nodes with 60 appended, L3 1000 B in 40 nodes with none. */
  private static List<MkChooser.LevelShape> appendingTop() {
    return List.of(level(10, 1, 4, 1), level(100, 10, 60, 12), level(1000, 40, 0, 0));
  }

  @Test
  void levelsThatAppendNowCountOnlyTheirAppendedSequences() {
    List<MkChooser.LevelShape> d = appendingTop();
    // The paper's rule at M = 300: levels 1–2 cost 110, S_{3,k} = 40·(k−1)/2·10 = 200(k−1): k = 2
    // needs 310, so (3, 1).
    assertEquals(new Choice(3, 1), MkChooser.chooseMeasured(d, 300, 10, 10, false, 100, 0, 0));
    // Levels 1–2 append now (m was 3): they cost what they protect, 4 + 60 = 64. 64 + 200 = 264
    // fits, 464 does not: (3, 2).
    assertEquals(new Choice(3, 2), MkChooser.chooseMeasured(d, 300, 10, 10, false, 100, 0, 3));
    // Only level 1 appends now (m was 2): 4 + 100 + 200 = 304 > 300, so (3, 1).
    assertEquals(new Choice(3, 1), MkChooser.chooseMeasured(d, 300, 10, 10, false, 100, 0, 2));
    // A level that does not append now costs D_j: m = 4 needs 64 + 1000 = 1064.
    assertEquals(new Choice(4, 1), MkChooser.chooseMeasured(d, 1064, 10, 10, false, 100, 0, 3));
    assertEquals(3, MkChooser.chooseMeasured(d, 1063, 10, 10, false, 100, 0, 3).m());
    // The seven-argument form is the paper's rule.
    assertEquals(MkChooser.chooseMeasured(d, 300, 10, 10, false, 100, 0, 0),
        MkChooser.chooseMeasured(d, 300, 10, 10, false, 100, 0));
  }

  @Test
  void fitsAddsBytesToWhatTheRuleProtectsNow() {
    List<MkChooser.LevelShape> d = appendingTop();
    // m = 3, levels 1–2 appending: 64 held, nothing appended on L3. Budget 300.
    assertTrue(MkChooser.fits(d, 300, false, 0, 3, 3, 236));
    assertFalse(MkChooser.fits(d, 300, false, 0, 3, 3, 237));
    // The paper's rule counts levels 1–2 whole: 110.
    assertTrue(MkChooser.fits(d, 300, false, 0, 0, 3, 190));
    assertFalse(MkChooser.fits(d, 300, false, 0, 0, 3, 191));
    // Half of 600, less 10 of headroom: 290.
    assertTrue(MkChooser.fits(d, 600, true, 10, 3, 3, 226));
    assertFalse(MkChooser.fits(d, 600, true, 10, 3, 3, 227));
    // What L3 and below hold now counts too: 50 appended on L3, 30 on L4.
    List<MkChooser.LevelShape> held = List.of(level(10, 1, 4, 1), level(100, 10, 60, 12), level(1000, 40, 50, 5),
        level(3000, 30, 30, 2));
    assertTrue(MkChooser.fits(held, 300, false, 0, 3, 3, 156));
    assertFalse(MkChooser.fits(held, 300, false, 0, 3, 3, 157));
    assertThrows(IllegalArgumentException.class, () -> MkChooser.fits(d, 300, false, 0, 3, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> MkChooser.fits(d, 300, false, 0, 3, 5, 1));
    assertThrows(IllegalArgumentException.class, () -> MkChooser.fits(d, 300, false, 0, 3, 3, -1));
    assertThrows(IllegalArgumentException.class, () -> MkChooser.fits(d, 300, false, -1, 3, 3, 1));
  }

  @Test
  void measuredEdges() {
    assertEquals(new Choice(1, 1), measured(List.of(), 0));
    List<MkChooser.LevelShape> d = List.of(level(10, 1, 0, 0), level(100, 10, 0, 0));
    assertEquals(new Choice(3, 1), measured(d, 110));
    assertEquals(new Choice(3, 1), measured(d, 1_000_000));
    // M = 109: m = 2 (10 ≤ 109), S_{2,k} = 10·(k−1)/2·10 = 50(k−1): k = 2 (60), k = 3 (110 > 109) → (2, 2).
    assertEquals(new Choice(2, 2), measured(d, 109));
  }
}
