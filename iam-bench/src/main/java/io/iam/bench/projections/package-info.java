/**
 * {@code iam projections}: the Min-Max paper's benchmark (Ton That et al., SSDBM 2021, §5) on any
 * store registered in {@link io.iam.bench.load.LoadTargets}: three projections of a generated
 * taxi-like stream, each loaded into a store of its own, then the range queries of the paper's
 * Table 4 on each.
 *
 * <p>{@link TaxiTrips} generates the stream (pure, seeded) and {@link Projection} turns a trip into
 * each projection's order-preserving key and value; {@link Sortedness} measures how sorted a stream
 * arrives; {@link RangeQueries} places Table 4's queries (pure); {@link ProjectionsBench} does the
 * loads and queries on a {@link io.iam.bench.load.LoadTarget}; {@link ProjectionsReport} and {@link
 * ProjectionsCharts} write the table, JSON, CSV and PNG. See docs/minmax.md, "Benchmark: three
 * projections".
 */
package io.iam.bench.projections;
