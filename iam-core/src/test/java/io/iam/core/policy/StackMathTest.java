package io.iam.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StackMathTest {

  @Test
  void binomialMatchesExactArithmeticAndSaturates() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 20_000; i++) {
      long n = random.nextLong(0, 3000);
      long r = random.nextLong(0, 70);
      BigInteger exact = PaperRecurrence.c(n, r);
      long expected = exact.bitLength() < 64 ? exact.longValue() : Long.MAX_VALUE;
      assertEquals(expected, StackMath.binomial(n, r), "C(" + n + ", " + r + ")");
    }
    assertEquals(0, StackMath.binomial(3, 5));
    assertEquals(Long.MAX_VALUE, StackMath.binomial(200, 100));
  }

  @Test
  void stackDepthEqualsThePaperRecurrenceOnWholeTrees() {
    for (int k = 0; k <= 6; k++) {
      for (int m = 0; m <= 8; m++) {
        long n = PaperRecurrence.c(m + k, k).longValueExact() - 1;
        int deepest = 0;
        for (long t = 0; t <= n; t++) {
          int depth = StackMath.stackDepth(m, k, t);
          assertEquals(PaperRecurrence.b(m, k, t), depth, "B(" + m + "," + k + "," + t + ")");
          deepest = Math.max(deepest, depth);
        }
        // tau*(m, k) has maximum stack depth k - 1, so B (the depth counted from 1) is at most k.
        assertTrue(deepest <= k, "B exceeds k for m=" + m + " k=" + k);
      }
    }
  }

  @Test
  void stackDepthRejectsNodesOutsideTheTree() {
    long n = StackMath.binomial(5, 3) - 1;
    assertThrows(IllegalArgumentException.class, () -> StackMath.stackDepth(2, 3, n + 1));
    assertThrows(IllegalArgumentException.class, () -> StackMath.stackDepth(2, 3, -1));
  }

  @Test
  void minLatencyAndBinomialEqualTheLiteralDefinitionsForSmallT() {
    for (int k = 1; k <= 10; k++) {
      for (long t = 1; t <= 3000; t++) {
        assertEquals(PaperRecurrence.minLatencyKeep(k, t), StackMath.minLatencyKeep(k, t), "minlatency k=" + k + " t=" + t);
        assertEquals(PaperRecurrence.binomialKeep(k, t), StackMath.binomialKeep(k, t), "binomial k=" + k + " t=" + t);
      }
    }
  }

  @Test
  void minLatencyAndBinomialEqualTheLiteralDefinitionsForLargeT() {
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 300; i++) {
      int k = random.nextInt(3, 13);
      long t = random.nextLong(1, 50_000_000L);
      assertEquals(PaperRecurrence.minLatencyKeep(k, t), StackMath.minLatencyKeep(k, t), "minlatency k=" + k + " t=" + t);
      assertEquals(PaperRecurrence.binomialKeep(k, t), StackMath.binomialKeep(k, t), "binomial k=" + k + " t=" + t);
    }
  }

  @Test
  void keepNeverExceedsK() {
    for (int k : new int[] {1, 2, 3, 7, 20, StackMath.MAX_K}) {
      for (long t : new long[] {1, 2, 3, 100, 99_999, 1L << 40, Long.MAX_VALUE / 4}) {
        int ml = StackMath.minLatencyKeep(k, t);
        int bi = StackMath.binomialKeep(k, t);
        assertTrue(ml >= 1 && ml <= k, "minlatency k=" + k + " t=" + t + " keeps " + ml);
        assertTrue(bi >= 1 && bi <= k, "binomial k=" + k + " t=" + t + " keeps " + bi);
      }
    }
  }

  @Test
  void binomialTFollowsItsDefinition() {
    for (int k = 1; k <= 12; k++) {
      for (long m = 0; m <= 40; m++) {
        BigInteger exact = PaperRecurrence.t(k, m);
        long expected = exact.bitLength() < 64 ? exact.longValue() : Long.MAX_VALUE;
        assertEquals(expected, StackMath.binomialT(k, m), "T_" + k + "(" + m + ")");
      }
    }
  }
}
