package io.iam.bench.projections;

import io.iam.bench.load.LoadConfig;
import java.util.List;
import java.util.Map;

/**
 * Everything one {@code iam projections} run measured.
 *
 * @param records trips per projection
 * @param seed the stream's seed
 * @param disorder the stream's disorder W, in records
 * @param queriesPerRow queries per Table 4 row and projection
 * @param config the budgets every store got (its {@code tree} is the first store's name)
 * @param stream per projection, how sorted its keys arrive and its attribute's span
 * @param stores per store, in the order given, its projections in order
 */
public record ProjectionsResult(int records, long seed, int disorder, int queriesPerRow, LoadConfig config,
    Map<Projection, Shape> stream, Map<String, List<ProjectionFigures>> stores) {

  /**
   * How a projection's keys arrive.
   *
   * @param sortedness how far from sorted
   * @param span its attribute's largest minus smallest value: a relative key range is over it
   */
  public record Shape(Sortedness sortedness, long span) {

    /** Measures {@code projection}'s first {@code records} trips. */
    public static Shape of(TaxiTrips trips, Projection projection, int records) {
      long[] values = projection.attributes(trips, records);
      return new Shape(Sortedness.of(values), RangeQueries.span(values));
    }
  }

  public ProjectionsResult {
    stream = Map.copyOf(stream);
    stores = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(stores));
  }
}
