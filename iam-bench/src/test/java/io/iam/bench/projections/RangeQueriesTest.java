package io.iam.bench.projections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RangeQueriesTest {

  @Test
  void eachQueryHoldsTheCountItExpectsAndTheTablesSelectivity() {
    int n = 30_000;
    TaxiTrips trips = new TaxiTrips(42, 1000);
    for (Projection p : Projection.values()) {
      long[] values = p.attributes(trips, n);
      List<RangeQueries.Query> queries = ProjectionsBench.queries(trips, p, n, 4);
      assertEquals(4 * RangeQueries.TABLE_4.size(), queries.size());
      for (RangeQueries.Query q : queries) {
        long inRange = 0;
        for (long v : values) {
          inRange += v >= q.lo() && v <= q.hi() ? 1 : 0;
        }
        assertEquals(inRange, q.expected(), p + " " + q);
        double selectivity = (double) q.expected() / n;
        assertEquals(q.row().selectivity(), selectivity, q.row().selectivity() * 0.02, p + " " + q);
      }
      // The same seed and sizes place the same queries: every store gets the same ones.
      assertEquals(queries, ProjectionsBench.queries(trips, p, n, 4));
    }
  }

  @Test
  void onIdsTheKeyRangeIsTheSelectivityOfTheSpan() {
    int n = 10_000;
    TaxiTrips trips = new TaxiTrips(1, 100);
    long span = RangeQueries.span(Projection.P1.attributes(trips, n));
    assertEquals(n - 1, span);
    for (RangeQueries.Query q : ProjectionsBench.queries(trips, Projection.P1, n, 2)) {
      assertEquals(q.expected() - 1, q.keyRange());
      assertEquals(Math.round(q.row().selectivity() * n), q.expected());
    }
  }

  @Test
  void tableFourAsPrinted() {
    assertEquals(List.of("Q1", "Q2", "Q3", "Q4", "Q5"), RangeQueries.TABLE_4.stream().map(RangeQueries.Table4::name)
        .toList());
    assertEquals(List.of(0.003, 0.006, 0.015, 0.026, 0.050),
        RangeQueries.TABLE_4.stream().map(RangeQueries.Table4::selectivity).toList());
    assertTrue(RangeQueries.TABLE_4.stream().allMatch(r -> r.paperKeyRange() > 0));
  }
}
