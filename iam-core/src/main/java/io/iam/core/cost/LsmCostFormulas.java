package io.iam.core.cost;

import java.util.function.IntToLongFunction;

/**
 * The paper's cost model of leveled and tiered LSM trees (§3 and appendix 8.2), formulas (1)–(6),
 * as a pure calculator. Notation (paper Table 3): N entries, a buffer of B entries, M = ⌊N/B⌋
 * flushed buffers, size ratio T, L = ⌊log_T M⌋ + 1 levels, pages of P entries (P divides B). Level
 * i ≥ 1 receives A_i = ⌊M/T^(i−1)⌋ runs of B·T^(i−1) entries and fills F_i = ⌊M/T^i⌋ times; r_i =
 * A_i mod T.
 *
 * <pre>
 * (1) m_level = Σ (A_i − F_i)                                    merges, leveled
 * (2) m_tier  = Σ F_i                                            merges, tiered
 * (3) n_w^R   = Σ (A_i − F_i) · B·T^(i−1) / P                    write I/Os, tiered
 * (4) n_w^L   = Σ [F_i (T+1) T^i B / 2P + r_i (r_i+1) T^(i−1) B / 2P]   write I/Os, leveled
 * (5) n_r^R   = Σ F_i (T−1) B / P                                read I/Os, tiered
 * (6) n_r^V   = Σ [F_i (T−1) T^i B / 2P + r_i (r_i−1) T^(i−1) B / 2P]   read I/Os, leveled
 * </pre>
 *
 * Every sum runs over i = 1 … L−1 exactly as printed ({@link #mergesLeveled()} and the other
 * totals); each term is available per level ({@link #mergesLeveled(int)} …) so a caller can sum
 * other ranges. Two things the comparison with {@link LsmMergeSimulator} shows:
 *
 * <ul>
 *   <li>the data reaches level L (it holds A_L ≥ 1 runs), so sums to L−1 leave the deepest level
 *       out; {@link #sum(int, IntToLongFunction)} to L includes it;
 *   <li>(5) as printed reads (T−1)·B entries per merge at every level; a merge at level i reads
 *       T−1 runs of B·T^(i−1), which {@link #readsTieredScaled(int)} counts. The two agree when
 *       only level 1 merges (M &lt; T²).
 * </ul>
 */
public final class LsmCostFormulas {

  private final long n;
  private final int b;
  private final int t;
  private final int p;
  private final long m;
  private final int levels;

  /** The model for {@code n} entries, buffer {@code b}, ratio {@code t} ≥ 2, pages of {@code p} dividing {@code b}. */
  public LsmCostFormulas(long n, int b, int t, int p) {
    if (n < 0 || b < 1 || t < 2 || p < 1 || b % p != 0) {
      throw new IllegalArgumentException(
          "need n >= 0, b >= 1, t >= 2, p >= 1 dividing b; got n=" + n + " b=" + b + " t=" + t + " p=" + p);
    }
    this.n = n;
    this.b = b;
    this.t = t;
    this.p = p;
    this.m = n / b;
    int l = 0;
    for (long x = m; x > 0; x /= t) {
      l++; // ⌊log_T M⌋ + 1 for M ≥ 1, and 0 when nothing was flushed
    }
    this.levels = l;
  }

  /** N. */
  public long entries() {
    return n;
  }

  /** M = ⌊N/B⌋, the flushed buffers. */
  public long buffers() {
    return m;
  }

  /** L = ⌊log_T M⌋ + 1 (0 if M = 0). */
  public int levels() {
    return levels;
  }

  /** A_i = ⌊M/T^(i−1)⌋: runs arriving at level i ≥ 1. */
  public long arrivals(int i) {
    long a = m;
    for (int j = 1; j < i; j++) {
      a /= t;
    }
    return a;
  }

  /** F_i = ⌊M/T^i⌋: times level i fills. */
  public long fills(int i) {
    return arrivals(i + 1);
  }

  /** Term i of (1): leveled merges at level i. */
  public long mergesLeveled(int i) {
    return arrivals(i) - fills(i);
  }

  /** Term i of (2): tiered merges at level i. */
  public long mergesTiered(int i) {
    return fills(i);
  }

  /** Term i of (3): tiered write I/Os at level i. */
  public long writesTiered(int i) {
    return (arrivals(i) - fills(i)) * runPages(i);
  }

  /** Term i of (4): leveled write I/Os at level i. */
  public long writesLeveled(int i) {
    long r = arrivals(i) % t;
    return fills(i) * ((long) (t + 1) * t / 2) * runPages(i) + r * (r + 1) / 2 * runPages(i);
  }

  /** Term i of (5) as printed: (T−1)·B/P read I/Os per tiered merge at any level. */
  public long readsTiered(int i) {
    return fills(i) * (t - 1) * (b / p);
  }

  /** Term i of (5) with the run size of level i: (T−1)·B·T^(i−1)/P per tiered merge at level i. */
  public long readsTieredScaled(int i) {
    return fills(i) * (t - 1) * runPages(i);
  }

  /** Term i of (6): leveled read I/Os at level i. */
  public long readsLeveled(int i) {
    long r = arrivals(i) % t;
    return fills(i) * ((long) (t - 1) * t / 2) * runPages(i) + r * (r - 1) / 2 * runPages(i);
  }

  /** (1) as printed, i = 1 … L−1. */
  public long mergesLeveled() {
    return sum(levels - 1, this::mergesLeveled);
  }

  /** (2) as printed. */
  public long mergesTiered() {
    return sum(levels - 1, this::mergesTiered);
  }

  /** (3) as printed. */
  public long writesTiered() {
    return sum(levels - 1, this::writesTiered);
  }

  /** (4) as printed. */
  public long writesLeveled() {
    return sum(levels - 1, this::writesLeveled);
  }

  /** (5) as printed. */
  public long readsTiered() {
    return sum(levels - 1, this::readsTiered);
  }

  /** (6) as printed. */
  public long readsLeveled() {
    return sum(levels - 1, this::readsLeveled);
  }

  /** Σ term(i) for i = 1 … last. */
  public static long sum(int last, IntToLongFunction term) {
    long s = 0;
    for (int i = 1; i <= last; i++) {
      s = Math.addExact(s, term.applyAsLong(i));
    }
    return s;
  }

  /** Pages of a run at level i: B·T^(i−1)/P. */
  private long runPages(int i) {
    long pages = b / p;
    for (int j = 1; j < i; j++) {
      pages = Math.multiplyExact(pages, t);
    }
    return pages;
  }
}
