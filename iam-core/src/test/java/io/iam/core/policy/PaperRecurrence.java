package io.iam.core.policy;

import java.math.BigInteger;

/**
 * The bounded-depth paper's definitions of B, MinLatency and Binomial, written as literally as
 * possible (plain recursion, linear searches, BigInteger binomials). Slow, obviously right; the
 * tests compare {@link StackMath} and the policies against it.
 */
final class PaperRecurrence {

  private PaperRecurrence() {}

  static BigInteger c(long n, long r) {
    if (r < 0 || r > n) {
      return BigInteger.ZERO;
    }
    r = Math.min(r, n - r); // C(n, r) = C(n, n - r)
    BigInteger result = BigInteger.ONE;
    for (long i = 1; i <= r; i++) {
      result = result.multiply(BigInteger.valueOf(n - r + i)).divide(BigInteger.valueOf(i));
    }
    return result;
  }

  /** B(m, k, t) by the recurrence in Section III. */
  static int b(long m, int k, long t) {
    if (t == 0) {
      return 0;
    }
    BigInteger threshold = c(m + k - 1, k);
    if (BigInteger.valueOf(t).compareTo(threshold) < 0) {
      return b(m - 1, k, t);
    }
    return 1 + b(m, k - 1, t - threshold.longValueExact());
  }

  /** MinLatency: i = B(m', k, t), m' = min{m : C(m+k, m) > t}. */
  static int minLatencyKeep(int k, long t) {
    long m = 0;
    while (c(m + k, m).compareTo(BigInteger.valueOf(t)) <= 0) {
      m++;
    }
    return b(m, k, t);
  }

  /** T_k(m) = sum_{i=1..m} C(i + min(i, k) - 1, i). */
  static BigInteger t(int k, long m) {
    BigInteger sum = BigInteger.ZERO;
    for (long i = 1; i <= m; i++) {
      sum = sum.add(c(i + Math.min(i, k) - 1, i));
    }
    return sum;
  }

  /** Binomial: i = 1 + B(m', min(m', k) - 1, t - T_k(m'-1) - 1), m' = min{m : T_k(m) >= t}. */
  static int binomialKeep(int k, long t) {
    long m = 1;
    BigInteger before = BigInteger.ZERO; // T_k(m - 1)
    BigInteger through = c(1, 1); // T_k(m)
    while (through.compareTo(BigInteger.valueOf(t)) < 0) {
      m++;
      before = through;
      through = through.add(c(m + Math.min(m, k) - 1, m));
    }
    return 1 + b(m, (int) Math.min(m, k) - 1, t - before.longValueExact() - 1);
  }
}
