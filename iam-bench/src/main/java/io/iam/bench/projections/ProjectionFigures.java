package io.iam.bench.projections;

import io.iam.bench.load.IoCounters;
import io.iam.bench.load.LoadMetrics;
import java.util.List;

/**
 * One projection loaded into one store, then queried.
 *
 * @param store the store's registered name
 * @param projection which projection
 * @param records records loaded
 * @param loadNanos wall time of the puts
 * @param settleNanos wall time of the flush and the background work after them
 * @param metrics the store's write figures after it settled, as {@code iam load} reports them
 * @param io the store's merge counters over the load
 * @param queries one entry per Table 4 row, in the table's order
 */
public record ProjectionFigures(String store, Projection projection, long records, long loadNanos, long settleNanos,
    LoadMetrics metrics, IoCounters io, List<QueryFigures> queries) {

  public ProjectionFigures {
    queries = List.copyOf(queries);
  }

  /** Puts plus settle: the time until the projection is loaded and sorted as the store keeps it. */
  public long totalNanos() {
    return loadNanos + settleNanos;
  }
}
