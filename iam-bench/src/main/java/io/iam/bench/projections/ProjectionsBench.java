package io.iam.bench.projections;

import io.iam.bench.load.IoCounters;
import io.iam.bench.load.LoadConfig;
import io.iam.bench.load.LoadMetrics;
import io.iam.bench.load.LoadTarget;
import io.iam.bench.util.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Loads the three projections of a {@link TaxiTrips} stream into one kind of store and runs Table
 * 4's range queries on each. Each projection gets a store of its own, in a subdirectory named after
 * it, with the whole budget of {@link LoadConfig}; the projections are loaded one after the other
 * (puts in arrival order from one thread, then a settle), and each is queried right after its load,
 * while nothing runs in the background, then closed.
 *
 * <p>The queries of a projection are the same for every store: they come from {@link
 * #queries(TaxiTrips, Projection, int, int)}, which depends on the seed, the projection and the
 * sizes only.
 */
public final class ProjectionsBench {

  /** How often the progress bar is fed, in records. */
  private static final int PROGRESS_EVERY = 1024;

  private final TaxiTrips trips;
  private final int records;
  private final int queriesPerRow;
  private final boolean progress;

  /**
   * @param trips the stream
   * @param records trips to load into every projection
   * @param queriesPerRow queries per Table 4 row and projection
   * @param progress whether to draw progress bars (on stderr)
   */
  public ProjectionsBench(TaxiTrips trips, int records, int queriesPerRow, boolean progress) {
    this.trips = trips;
    this.records = records;
    this.queriesPerRow = queriesPerRow;
    this.progress = progress;
  }

  /** Table 4's queries on {@code projection}, drawn from the stream's seed. */
  public static List<RangeQueries.Query> queries(TaxiTrips trips, Projection projection, int records, int perRow) {
    SplittableRandom random = new SplittableRandom(trips.seed() * 31 + projection.ordinal());
    return RangeQueries.plan(projection.attributes(trips, records), perRow, random);
  }

  /**
   * Loads and queries every projection on the store {@code factory} opens, under {@code dir}.
   *
   * @throws IllegalStateException if a query returns another number of records than the stream
   *     holds in its range, or the store counts other user bytes than were put
   */
  public List<ProjectionFigures> run(LoadTarget.Factory factory, LoadConfig config, Path dir) throws IOException {
    List<ProjectionFigures> out = new ArrayList<>();
    for (Projection p : Projection.values()) {
      Path storeDir = dir.resolve(p.label());
      Files.createDirectories(storeDir);
      out.add(run(factory, config, storeDir, p));
    }
    return out;
  }

  private ProjectionFigures run(LoadTarget.Factory factory, LoadConfig config, Path dir, Projection p)
      throws IOException {
    String store = config.tree();
    List<RangeQueries.Query> queries = queries(trips, p, records, queriesPerRow);
    try (LoadTarget target = factory.open(dir, config)) {
      IoCounters before = target.ioCounters();
      long userBytes = 0;
      long loadNanos;
      long settleNanos;
      try (Progress bar = Progress.records(store + " " + p.label(), records, progress)) {
        long start = System.nanoTime();
        for (int i = 0; i < records; i++) {
          byte[] key = p.key(trips, i);
          byte[] value = p.value(trips, i);
          userBytes += key.length + value.length;
          target.put(key, value);
          if ((i + 1) % PROGRESS_EVERY == 0) {
            bar.stepTo(i + 1);
          }
        }
        bar.stepTo(records);
        loadNanos = System.nanoTime() - start;
        bar.message(" settling...");
        start = System.nanoTime();
        target.settle();
        settleNanos = System.nanoTime() - start;
      }
      LoadMetrics metrics = target.metrics();
      if (metrics.userBytes() != userBytes) {
        throw new IllegalStateException(store + " " + p.label() + " reports " + metrics.userBytes()
            + " user bytes, but " + userBytes + " were put");
      }
      IoCounters loaded = target.ioCounters();
      List<QueryFigures> figures = query(target, store, p, queries);
      return new ProjectionFigures(store, p, records, loadNanos, settleNanos, metrics, loaded.minus(before), figures);
    }
  }

  /** Runs the queries row by row, counting each row's data block reads by the store's counters. */
  private List<QueryFigures> query(LoadTarget target, String store, Projection p, List<RangeQueries.Query> queries)
      throws IOException {
    List<QueryFigures> figures = new ArrayList<>();
    for (RangeQueries.Table4 row : RangeQueries.TABLE_4) {
      List<RangeQueries.Query> ofRow = queries.stream().filter(q -> q.row().equals(row)).toList();
      IoCounters before = target.ioCounters();
      long expected = 0;
      long returned = 0;
      long keyRange = 0;
      long start = System.nanoTime();
      for (RangeQueries.Query q : ofRow) {
        long got = target.scanRange(p.rangeStart(q.lo()), p.rangeEnd(q.hi()), (key, value) -> {});
        if (got != q.expected()) {
          throw new IllegalStateException(store + " " + p.label() + " " + row.name() + " [" + q.lo() + ", " + q.hi()
              + "] returned " + got + " records, the stream holds " + q.expected());
        }
        expected += q.expected();
        returned += got;
        keyRange += q.keyRange();
      }
      long nanos = System.nanoTime() - start;
      long blocks = target.ioCounters().minus(before).dataBlockReads();
      figures.add(new QueryFigures(row, ofRow.size(), expected, returned, blocks, keyRange, nanos, records));
    }
    return figures;
  }
}
