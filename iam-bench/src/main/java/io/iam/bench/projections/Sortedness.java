package io.iam.bench.projections;

/**
 * How far a stream of keys is from sorted, by three measures (equal keys count as in order):
 *
 * <ul>
 *   <li>the <b>inversion fraction</b>: pairs out of order over all pairs, n(n−1)/2; 0 for a sorted
 *       stream, about ½ for a shuffle, 1 for a reversed one;
 *   <li>the <b>largest displacement</b>: how many places the key furthest from its sorted place
 *       (a stable sort's) has to move; a shuffle's is close to n;
 *   <li>the <b>mean ascending run</b>: n over the number of maximal non-descending runs; n for a
 *       sorted stream, about 2 for a shuffle.
 * </ul>
 *
 * A stream with a stable distribution in the paper's sense has a small inversion fraction and a
 * displacement bounded by its disorder, even where its runs are short.
 *
 * @param records keys measured
 * @param inversions pairs i &lt; j with key i &gt; key j
 * @param maxDisplacement the largest |sorted place − arrival place|
 * @param runs maximal non-descending runs
 */
public record Sortedness(long records, long inversions, long maxDisplacement, long runs) {

  /** Measures {@code keys} in arrival order; the array is not changed. O(n log n). */
  public static Sortedness of(long[] keys) {
    int n = keys.length;
    long runs = n == 0 ? 0 : 1;
    for (int i = 1; i < n; i++) {
      if (keys[i] < keys[i - 1]) {
        runs++;
      }
    }
    // Sort the arrival places by key, stably, counting inversions as a merge sort does.
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    long inversions = sort(keys, order, new int[n], 0, n);
    long maxDisplacement = 0;
    for (int rank = 0; rank < n; rank++) {
      maxDisplacement = Math.max(maxDisplacement, Math.abs(rank - order[rank]));
    }
    return new Sortedness(n, inversions, maxDisplacement, runs);
  }

  /** Merge-sorts {@code order[from, to)} by key, stably; returns the inversions it undid. */
  private static long sort(long[] keys, int[] order, int[] scratch, int from, int to) {
    if (to - from < 2) {
      return 0;
    }
    int mid = (from + to) >>> 1;
    long inversions = sort(keys, order, scratch, from, mid) + sort(keys, order, scratch, mid, to);
    int l = from;
    int r = mid;
    int out = from;
    while (l < mid && r < to) {
      if (keys[order[r]] < keys[order[l]]) {
        inversions += mid - l;
        scratch[out++] = order[r++];
      } else {
        scratch[out++] = order[l++];
      }
    }
    while (l < mid) {
      scratch[out++] = order[l++];
    }
    while (r < to) {
      scratch[out++] = order[r++];
    }
    System.arraycopy(scratch, from, order, from, to - from);
    return inversions;
  }

  /** Inversions over all pairs: 0 sorted, about ½ shuffled. */
  public double inversionFraction() {
    return records < 2 ? 0 : inversions / (records * (records - 1) / 2.0);
  }

  /** Records per non-descending run. */
  public double meanRunLength() {
    return runs == 0 ? 0 : (double) records / runs;
  }

  @Override
  public String toString() {
    return String.format("inversions %.5f of pairs, largest displacement %,d, mean run %.1f", inversionFraction(),
        maxDisplacement, meanRunLength());
  }
}
