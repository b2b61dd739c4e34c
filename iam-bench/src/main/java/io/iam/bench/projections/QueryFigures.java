package io.iam.bench.projections;

import io.iam.bench.load.IoCounters;

/**
 * The queries of one Table 4 row on one projection of one store, added up.
 *
 * @param row the Table 4 row
 * @param queries queries run
 * @param expected records the generator says the queries hold, summed
 * @param returned records the store returned, summed
 * @param dataBlocks data blocks the store read from its files for them ({@link IoCounters}), summed;
 *     {@link IoCounters#UNKNOWN} if the store does not count them
 * @param keyRange the attribute deltas, summed
 * @param nanos wall time of the queries
 * @param records records in the projection
 */
public record QueryFigures(RangeQueries.Table4 row, int queries, long expected, long returned, long dataBlocks,
    long keyRange, long nanos, long records) {

  /** The fraction of all records a query returned, on average. */
  public double selectivity() {
    return (double) returned / queries / records;
  }

  public double returnedPerQuery() {
    return (double) returned / queries;
  }

  /** Data blocks read per query; NaN if the store does not count them. */
  public double blocksPerQuery() {
    return dataBlocks == IoCounters.UNKNOWN ? Double.NaN : (double) dataBlocks / queries;
  }

  public double keyRangePerQuery() {
    return (double) keyRange / queries;
  }

  public double millisPerQuery() {
    return nanos / 1e6 / queries;
  }
}
