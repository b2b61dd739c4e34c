package io.iam.core.policy;

import java.math.BigInteger;

/**
 * The combinatorics behind MinLatency and Binomial (Mathieu et al., as restated in Section III of
 * "Experimental Evaluation of Bounded-Depth LSM Merge Policies").
 *
 * <p>{@code B(m, k, t)} is the stack depth of node {@code t} in the unique binary search tree on
 * {@code n = C(m+k, k) - 1} nodes with maximum stack depth {@code k-1} and maximum merge depth
 * {@code m-1}. The paper's recurrence is
 *
 * <pre>
 *   B(m, k, 0) = 0
 *   B(m, k, t) = B(m-1, k, t)                      if t &lt;  C(m+k-1, k)
 *              = 1 + B(m, k-1, t - C(m+k-1, k))    if t &ge; C(m+k-1, k)
 * </pre>
 *
 * <p>{@link #stackDepth} evaluates it in at most {@code k} rounds: a run of first-branch steps
 * only lowers {@code m} to the least {@code m*} with {@code C(m*+k, k) > t}, which a binary search
 * finds directly. Binomial coefficients saturate at {@link Long#MAX_VALUE}, which is larger than
 * any flush count, so comparisons against flush counts stay exact.
 *
 * <p>All methods are pure; the Pascal table is built once and never changes.
 */
public final class StackMath {

  /** Largest k the policies accept. */
  public static final int MAX_K = 64;

  private static final int TABLE_N = 320;
  private static final long[][] PASCAL = new long[TABLE_N + 1][];

  /** PREFIX[m] = sum over i = 1..m of C(2i-1, i), saturating: T_k(m) for m &le; k. */
  private static final long[] PREFIX = new long[MAX_K + 1];

  static {
    for (int n = 0; n <= TABLE_N; n++) {
      int width = Math.min(n, MAX_K) + 1;
      PASCAL[n] = new long[width];
      PASCAL[n][0] = 1;
      for (int r = 1; r < width; r++) {
        long left = PASCAL[n - 1].length > r - 1 ? PASCAL[n - 1][r - 1] : 0;
        long right = r < PASCAL[n - 1].length && r <= n - 1 ? PASCAL[n - 1][r] : 0;
        PASCAL[n][r] = saturatingAdd(left, right);
      }
    }
    for (int m = 1; m <= MAX_K; m++) {
      PREFIX[m] = saturatingAdd(PREFIX[m - 1], binomial(2L * m - 1, m));
    }
  }

  private StackMath() {}

  /** {@code C(n, r)}, saturating at {@link Long#MAX_VALUE}; 0 when {@code r < 0} or {@code r > n}. */
  public static long binomial(long n, long r) {
    if (r < 0 || n < 0 || r > n) {
      return 0;
    }
    if (n <= TABLE_N && r <= MAX_K) {
      return PASCAL[(int) n][(int) r];
    }
    long rr = Math.min(r, n - r);
    long result = 1;
    for (long i = 1; i <= rr; i++) {
      long factor = n - rr + i;
      long hi = Math.multiplyHigh(result, factor);
      long lo = result * factor;
      if (hi != 0 || lo < 0) {
        return binomialExact(n, rr);
      }
      result = lo / i; // exact: the running product is C(n - rr + i, i)
    }
    return result;
  }

  private static long binomialExact(long n, long r) {
    BigInteger result = BigInteger.ONE;
    for (long i = 1; i <= r; i++) {
      result = result.multiply(BigInteger.valueOf(n - r + i)).divide(BigInteger.valueOf(i));
      if (result.bitLength() > 200) {
        return Long.MAX_VALUE; // only grows from here
      }
    }
    return result.bitLength() < 64 ? result.longValue() : Long.MAX_VALUE;
  }

  /** The least {@code m} in {@code [0, hi]} with {@code C(m+k, k) > t}; requires it at hi. */
  private static long leastM(int k, long t, long hi) {
    long lo = 0;
    while (lo < hi) {
      long mid = (lo + hi) >>> 1;
      if (binomial(mid + k, k) > t) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** An {@code m} with {@code C(m+k, k) > t}, found by doubling. */
  private static long upperM(int k, long t) {
    long m = 1;
    while (binomial(m + k, k) <= t) {
      m <<= 1;
    }
    return m;
  }

  /**
   * {@code B(m, k, t)}, the paper's recurrence.
   *
   * @throws IllegalArgumentException unless {@code 0 <= t <= C(m+k, k) - 1}
   */
  public static int stackDepth(long m, int k, long t) {
    if (k < 0 || m < 0 || t < 0 || t >= binomial(m + k, k)) {
      throw new IllegalArgumentException(
          "B(m, k, t) needs 0 <= t < C(m+k, k): m=" + m + " k=" + k + " t=" + t);
    }
    int depth = 0;
    while (t > 0) {
      m = leastM(k, t, m);
      t -= binomial(m + k - 1, k);
      k--;
      depth++;
    }
    return depth;
  }

  /**
   * MinLatency's choice at flush {@code t}: the number {@code i} of components left after the
   * merge, {@code i = B(m', k, t)} with {@code m' = min{m : C(m+k, m) > t}}.
   */
  public static int minLatencyKeep(int k, long t) {
    checkKt(k, t);
    long m = leastM(k, t, upperM(k, t));
    return stackDepth(m, k, t);
  }

  /**
   * {@code T_k(m) = sum over i = 1..m of C(i + min(i, k) - 1, i)}, saturating. For {@code i > k}
   * the terms are {@code C(i+k-1, k-1)}, whose sum telescopes (hockey-stick identity) to {@code
   * C(m+k, k) - C(2k, k)}, so this is O(1) after the table.
   */
  public static long binomialT(int k, long m) {
    if (m <= k) {
      return PREFIX[(int) m];
    }
    long head = PREFIX[k];
    long tail = binomial(m + k, k);
    long cut = binomial(2L * k, k);
    if (head == Long.MAX_VALUE || tail == Long.MAX_VALUE || cut == Long.MAX_VALUE) {
      return Long.MAX_VALUE;
    }
    return saturatingAdd(head, tail - cut);
  }

  /**
   * Binomial's choice at flush {@code t}: the number {@code i} of components left after the
   * merge, {@code i = 1 + B(m', min(m', k) - 1, t - T_k(m'-1) - 1)} with {@code m' = min{m :
   * T_k(m) >= t}}.
   */
  public static int binomialKeep(int k, long t) {
    checkKt(k, t);
    long m = binomialLeastM(k, t);
    return 1 + stackDepth(m, (int) Math.min(m, k) - 1, t - binomialT(k, m - 1) - 1);
  }

  /** {@code min{m : T_k(m) >= t}} for {@code t >= 1}. */
  static long binomialLeastM(int k, long t) {
    if (PREFIX[k] >= t) {
      int m = 1;
      while (PREFIX[m] < t) {
        m++;
      }
      return m;
    }
    // m > k: T_k(m) >= t  <=>  C(m+k, k) >= t - T_k(k) + C(2k, k) (both finite here).
    long target = t - PREFIX[k] + binomial(2L * k, k);
    return leastM(k, target - 1, upperM(k, target - 1));
  }

  private static void checkKt(int k, long t) {
    if (k < 1 || k > MAX_K) {
      throw new IllegalArgumentException("k must be 1.." + MAX_K + ": " + k);
    }
    if (t < 1) {
      throw new IllegalArgumentException("flush numbers start at 1: " + t);
    }
  }

  private static long saturatingAdd(long a, long b) {
    long s = a + b;
    return ((a ^ s) & (b ^ s)) < 0 ? Long.MAX_VALUE : s;
  }
}
