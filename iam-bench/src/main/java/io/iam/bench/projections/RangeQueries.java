package io.iam.bench.projections;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The range queries of the Min-Max paper's Table 4, placed on a generated stream so that each
 * returns the table's selectivity. The paper gives each query a key range (a delta of the indexed
 * attribute, [X, X + delta]) and the selectivity it had on the taxi data; the attribute values
 * here are not the taxi data's, so the selectivity is what is kept, and the key range is whatever
 * delta gives it.
 *
 * <p>A query of selectivity s over n records takes k = max(1, round(s·n)) neighbouring values in
 * sorted order, from a start drawn uniformly: [lo, hi] = [sorted[a], sorted[a + k − 1]]. It returns
 * every record whose attribute lies in [lo, hi], which is k, or a few more where values repeat; the
 * {@link Query#expected()} count is exact, from the generated values.
 */
public final class RangeQueries {

  /**
   * One row of Table 4.
   *
   * @param name Q1 … Q5
   * @param paperKeyRange the table's key range
   * @param selectivity the table's selectivity, the fraction of all records a query returns
   */
  public record Table4(String name, double paperKeyRange, double selectivity) {}

  /** The paper's Table 4. */
  public static final List<Table4> TABLE_4 = List.of(new Table4("Q1", 0.003, 0.003),
      new Table4("Q2", 0.005, 0.006), new Table4("Q3", 0.020, 0.015), new Table4("Q4", 0.030, 0.026),
      new Table4("Q5", 0.055, 0.050));

  /**
   * One query on one projection.
   *
   * @param row the Table 4 row it stands for
   * @param lo the smallest attribute value it returns
   * @param hi the largest attribute value it returns
   * @param expected records whose attribute lies in [lo, hi]
   */
  public record Query(Table4 row, long lo, long hi, long expected) {

    /** The key range as the paper states it: the attribute's delta. */
    public long keyRange() {
      return hi - lo;
    }
  }

  private RangeQueries() {}

  /**
   * {@code perRow} queries for each row of Table 4, on the attribute values {@code values} (in any
   * order), starts drawn from {@code random}; row by row, in the table's order.
   */
  public static List<Query> plan(long[] values, int perRow, SplittableRandom random) {
    if (values.length == 0 || perRow < 1) {
      throw new IllegalArgumentException("need records and at least one query per row: " + values.length + ", "
          + perRow);
    }
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    List<Query> queries = new ArrayList<>();
    for (Table4 row : TABLE_4) {
      int k = (int) Math.max(1, Math.min(n, Math.round(row.selectivity() * n)));
      for (int q = 0; q < perRow; q++) {
        int start = random.nextInt(n - k + 1);
        long lo = sorted[start];
        long hi = sorted[start + k - 1];
        queries.add(new Query(row, lo, hi, firstAbove(sorted, hi) - firstAtLeast(sorted, lo)));
      }
    }
    return queries;
  }

  /** The first index whose value is at least {@code v}; n if none. */
  private static int firstAtLeast(long[] sorted, long v) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The first index whose value is above {@code v}; n if none. */
  private static int firstAbove(long[] sorted, long v) {
    return v == Long.MAX_VALUE ? sorted.length : firstAtLeast(sorted, v + 1);
  }

  /** The attribute's span over all records, max − min: the denominator of a relative key range. */
  public static long span(long[] values) {
    return Arrays.stream(values).max().orElse(0) - Arrays.stream(values).min().orElse(0);
  }
}
