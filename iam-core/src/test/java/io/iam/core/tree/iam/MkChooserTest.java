package io.iam.core.tree.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.tree.iam.MkChooser.Choice;
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
}
