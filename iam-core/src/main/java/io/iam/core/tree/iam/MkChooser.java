package io.iam.core.tree.iam;

import java.math.BigInteger;

/**
 * Chooses the IAM-tree's mixed level {@code m} and its sequence cap {@code k} (paper §5.1.3).
 *
 * <p>With D_j the bytes stored in level j (1 ≤ j ≤ n), t the fan-out and M the cache size, the
 * bytes of all appended sequences when L_m is the mixed level with cap k are estimated as
 *
 * <pre>
 *   Σ_{j=1}^{m-1} D_j + S_{m,k},   S_{m,k} = D_m · (k − 1) / t          (formula 1)
 * </pre>
 *
 * and must fit the cache: {@code Σ_{j<m} D_j + S_{m,k} ≤ M} (formula 2), or ≤ M/2 in the
 * paper's variant that leaves half the cache to merge-generated sequences. The chooser returns the
 * largest m in 1..n+1, then the largest k in 1..k_max, satisfying it. Since S_{m,1} = 0, m is the
 * largest level whose upper levels fit; m = n+1 means every level appends, reported with k = 1.
 * Comparisons are exact (no rounding).
 */
public final class MkChooser {

  /** The chosen mixed level {@code m} (1..n+1) and sequence cap {@code k} (1..k_max). */
  public record Choice(int m, int k) {}

  private MkChooser() {}

  /**
   * @param levelBytes D_1..D_n, each ≥ 0 (index 0 is level 1)
   * @param cacheBytes M ≥ 0
   * @param fanout t ≥ 1
   * @param kMax the cap on k, ≥ 1
   * @param halfMemory use M/2 instead of M
   */
  public static Choice choose(long[] levelBytes, long cacheBytes, int fanout, int kMax, boolean halfMemory) {
    if (cacheBytes < 0 || fanout < 1 || kMax < 1) {
      throw new IllegalArgumentException("need M >= 0, t >= 1, k_max >= 1");
    }
    int n = levelBytes.length;
    BigInteger t = BigInteger.valueOf(fanout);
    // Scale both sides by t (and by 2 for M/2): t·Σ + D_m·(k−1) ≤ t·M  (or 2t·Σ + 2·D_m·(k−1) ≤ t·M).
    BigInteger scale = BigInteger.valueOf(halfMemory ? 2 : 1);
    BigInteger budget = BigInteger.valueOf(cacheBytes).multiply(t);
    BigInteger prefix = BigInteger.ZERO;
    int m = 1;
    BigInteger prefixAtM = BigInteger.ZERO;
    for (int level = 1; level <= n + 1; level++) {
      if (prefix.multiply(t).multiply(scale).compareTo(budget) > 0) {
        break;
      }
      m = level;
      prefixAtM = prefix;
      if (level <= n) {
        if (levelBytes[level - 1] < 0) {
          throw new IllegalArgumentException("negative level size: " + levelBytes[level - 1]);
        }
        prefix = prefix.add(BigInteger.valueOf(levelBytes[level - 1]));
      }
    }
    if (m == n + 1) {
      return new Choice(m, 1);
    }
    BigInteger dm = BigInteger.valueOf(levelBytes[m - 1]);
    BigInteger fixed = prefixAtM.multiply(t).multiply(scale);
    int k = 1;
    for (int candidate = 2; candidate <= kMax; candidate++) {
      BigInteger need = fixed.add(dm.multiply(BigInteger.valueOf(candidate - 1L)).multiply(scale));
      if (need.compareTo(budget) > 0) {
        break;
      }
      k = candidate;
    }
    return new Choice(m, k);
  }
}
