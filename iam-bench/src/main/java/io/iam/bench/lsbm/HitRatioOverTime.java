package io.iam.bench.lsbm;

import io.iam.bench.util.Charts;
import io.iam.bench.util.Jvm;
import io.iam.bench.util.RandomBytes;
import io.iam.bench.util.RunDir;
import io.iam.core.engine.IamStore;
import io.iam.core.engine.StoreOptions;
import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;

/**
 * The LSbM paper's Fig. 3 setup, small: load a store several times larger than the block cache,
 * then run a read/write mix in which reads go to a hot key range and writes to every key (so
 * compactions keep rewriting the files the hot blocks live in), and sample the block cache's hit
 * ratio every {@code sampleOps} operations, for each tree. Writes a CSV and a PNG.
 *
 * <p>{@code java -cp iam-bench/target/iam.jar io.iam.bench.lsbm.HitRatioOverTime OUT_DIR [records]
 * [ops] [trees]}, e.g. {@code out 200000 400000 leveled,lsbm}; {@code -Diam.hit-ratio.describe=true}
 * prints each store's statistics (levels, buffer lists, buffer hits) at the end of its run, {@code
 * -Diam.hit-ratio.trace=true} the buffer's counters (lookups, hits, fallbacks...) at every sample. The
 * trees run one after the other in the same process, on the same seed; {@code
 * -Diam.hit-ratio.rounds=2} runs them again in the reverse order (the first run of a process pays
 * the JIT's warm-up) and reports the geometric mean of the reads per second. Reads per second count only
 * the time spent in reads (the writes' time, which includes flush and compaction stalls, is left
 * out), so they compare what the cache gives the reads. Each run's store lives in a new temporary
 * directory that is deleted when the run ends; {@code -Diam.hit-ratio.keep=true} keeps it and names
 * it on stderr.
 */
public final class HitRatioOverTime {

  /**
   * The run's shape.
   *
   * @param options extra store options for every tree (e.g. {@code lsbm-freeze-shrink=1}); the
   *     leveled tree ignores the lsbm ones
   */
  public record Params(int records, int valueBytes, long ops, int sampleOps, double hotFraction, double writeFraction,
      String cache, String memtable, String levelBase, boolean inserts, Map<String, String> options,
      long readLatencyMicros) {

    public Params {
      options = Map.copyOf(options);
    }

    public static Params defaults(int records, long ops) {
      return new Params(records, 256, ops, Math.max(1000, (int) (ops / 100)), 0.02, 0.5, "4MiB", "1MiB", "4MiB",
          false, Map.of(), 0);
    }

    /**
     * The defaults, with system properties over them: {@code iam.hit-ratio.hot} (the hot fraction
     * of the keys), {@code iam.hit-ratio.cache} (block cache size), {@code iam.hit-ratio.inserts}
     * ({@code true}: writes insert new keys spread over the key space instead of updating loaded
     * ones, so merges find no repeated data), {@code iam.hit-ratio.writes} (the write fraction),
     * {@code iam.hit-ratio.options} (extra store options, {@code key=value,key=value}), {@code
     * iam.hit-ratio.read-latency-us} (a simulated device: each read of a table file waits this
     * long, see {@link SlowReadsFs}).
     */
    public static Params fromSystemProperties(int records, long ops) {
      Params d = defaults(records, ops);
      Map<String, String> options = new LinkedHashMap<>();
      String extra = System.getProperty("iam.hit-ratio.options", "");
      for (String kv : extra.split(",")) {
        if (!kv.isBlank()) {
          String[] parts = kv.split("=", 2);
          options.put(parts[0].trim(), parts[1].trim());
        }
      }
      return new Params(records, d.valueBytes(), ops, d.sampleOps(),
          Double.parseDouble(System.getProperty("iam.hit-ratio.hot", Double.toString(d.hotFraction()))),
          Double.parseDouble(System.getProperty("iam.hit-ratio.writes", Double.toString(d.writeFraction()))),
          System.getProperty("iam.hit-ratio.cache", d.cache()), d.memtable(), d.levelBase(),
          Boolean.getBoolean("iam.hit-ratio.inserts"), options, Long.getLong("iam.hit-ratio.read-latency-us", 0));
    }
  }

  /**
   * One sample: operations so far, the block cache's hit ratio over the last interval, and the
   * reads per second of the interval (reads divided by the time spent in them).
   */
  public record Sample(long ops, double hitRatio, double readsPerSecond) {}

  /**
   * The mix's reads split by whether they found every block they needed in the block cache: what
   * a hit and a miss cost under the same writes, and how many block misses a read meets.
   *
   * @param blockMisses block cache misses during the reads (a read may miss more than once)
   */
  public record ReadCosts(long hitReads, long hitNanos, long missReads, long missNanos, long blockMisses) {

    /** Mean microseconds of a read that found every block it needed cached. */
    public double microsPerHitRead() {
      return hitReads == 0 ? 0 : hitNanos / 1e3 / hitReads;
    }

    /** Mean microseconds of a read that missed the block cache at least once. */
    public double microsPerMissRead() {
      return missReads == 0 ? 0 : missNanos / 1e3 / missReads;
    }

    public double blockMissesPerRead() {
      long reads = hitReads + missReads;
      return reads == 0 ? 0 : (double) blockMisses / reads;
    }
  }

  /** A run's samples and its totals. */
  public record Run(List<Sample> samples, long reads, long readNanos, long nanos, ReadCosts costs, String describe) {

    /** Reads per second of time spent reading, over the whole run. */
    public double readsPerSecond() {
      return readNanos == 0 ? 0 : reads * 1e9 / readNanos;
    }

    /** Operations per second over the whole run (reads and writes). */
    public double opsPerSecond(long ops) {
      return nanos == 0 ? 0 : ops * 1e9 / nanos;
    }

    /** The median sampled hit ratio: the steady value compactions dip from. */
    public double steadyHitRatio() {
      double[] h = samples.stream().mapToDouble(Sample::hitRatio).sorted().toArray();
      return h.length == 0 ? 0 : h[h.length / 2];
    }

    public double minHitRatio() {
      return samples.stream().mapToDouble(Sample::hitRatio).min().orElse(0);
    }

    public double meanHitRatio() {
      return samples.stream().mapToDouble(Sample::hitRatio).average().orElse(0);
    }

    /** Samples whose hit ratio is more than 10% below the steady one. */
    public long dips() {
      double steady = steadyHitRatio();
      return samples.stream().filter(x -> x.hitRatio() < 0.9 * steady).count();
    }
  }

  private HitRatioOverTime() {}

  /** Runs one tree in {@code dir} (created empty) and returns its samples. */
  public static Run run(String tree, Path dir, Params p) throws IOException {
    Map<String, String> options = new LinkedHashMap<>(Map.of("tree", tree, "block-cache-size", p.cache(),
        "memtable-size", p.memtable(), "target-file-size", p.memtable(), "level-base-size", p.levelBase(),
        "lsbm-trim-interval-ms", "200"));
    p.options().forEach((k, v) -> {
      if (tree.equals("lsbm") || !k.startsWith("lsbm-")) {
        options.put(k, v);
      }
    });
    SplittableRandom random = new SplittableRandom(42);
    List<Sample> samples = new ArrayList<>();
    try (IamStore store = IamStore.open(new SlowReadsFs(LocalFs.INSTANCE, p.readLatencyMicros()), dir,
        StoreOptions.parse(options), BytewiseComparator.INSTANCE)) {
      int[] order = new int[p.records()]; // every key once, in random order: the store holds `records` keys
      for (int i = 0; i < order.length; i++) {
        int j = random.nextInt(i + 1);
        order[i] = order[j];
        order[j] = i;
      }
      for (int k : order) {
        store.put(key(k), value(random, p.valueBytes()));
      }
      store.flushAndSettle();
      int hot = Math.max(1, (int) (p.records() * p.hotFraction()));
      int hotStart = p.records() / 2;
      for (int i = 0; i < hot; i++) {
        store.get(key(hotStart + i)); // warm the cache: the samples show compactions, not the first reads
      }
      long hits = store.blockCache().hits();
      long misses = store.blockCache().misses();
      long reads = 0;
      long readNanos = 0;
      long intervalReads = 0;
      long intervalNanos = 0;
      long[] split = new long[5]; // reads that hit, their nanos, reads that missed, their nanos, block misses
      long start = System.nanoTime();
      for (long op = 1; op <= p.ops(); op++) {
        if (random.nextDouble() < p.writeFraction()) {
          byte[] k = p.inserts() ? newKey(random.nextInt(p.records()), op) : key(random.nextInt(p.records()));
          store.put(k, value(random, p.valueBytes()));
        } else {
          byte[] k = key(hotStart + random.nextInt(hot));
          long missesBefore = store.blockCache().misses();
          long t = System.nanoTime();
          store.get(k);
          long dt = System.nanoTime() - t;
          long missed = store.blockCache().misses() - missesBefore;
          int at = missed == 0 ? 0 : 2;
          split[at]++;
          split[at + 1] += dt;
          split[4] += missed;
          reads++;
          readNanos += dt;
          intervalReads++;
          intervalNanos += dt;
        }
        if (op % p.sampleOps() == 0) {
          long h = store.blockCache().hits();
          long m = store.blockCache().misses();
          long total = (h - hits) + (m - misses);
          samples.add(new Sample(op, total == 0 ? 0 : (double) (h - hits) / total,
              intervalNanos == 0 ? 0 : intervalReads * 1e9 / intervalNanos));
          if (Boolean.getBoolean("iam.hit-ratio.trace")) { // where the interval's reads went: buffer counters so far
            System.out.println("trace " + tree + " " + samples.get(samples.size() - 1) + ", misses " + (m - misses) + ", "
                + store.properties().entrySet().stream()
                    .filter(x -> x.getKey().startsWith("buffer.") && !x.getKey().matches("buffer\\.[0-9].*")).toList());
          }
          hits = h;
          misses = m;
          intervalReads = 0;
          intervalNanos = 0;
        }
      }
      long nanos = System.nanoTime() - start;
      return new Run(samples, reads, readNanos, nanos, new ReadCosts(split[0], split[1], split[2], split[3], split[4]),
          store.describe());
    }
  }

  /** Writes {@code hit-ratio.csv}, {@code hit-ratio.png} and {@code reads-per-second.png} into {@code out}. */
  public static void write(Path out, Map<String, Run> byTree) throws IOException {
    Files.createDirectories(out);
    StringBuilder csv = new StringBuilder("tree,ops,hit_ratio,reads_per_s\n");
    XYChart hit = chart("Block cache hit ratio over time (hot reads, writes everywhere)", "hit ratio");
    XYChart rate = chart("Reads per second over time (time spent in reads)", "reads/s");
    int i = 0;
    for (Map.Entry<String, Run> e : byTree.entrySet()) {
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      List<Double> r = new ArrayList<>();
      for (Sample s : e.getValue().samples()) {
        csv.append(e.getKey()).append(',').append(s.ops()).append(',').append(String.format("%.4f", s.hitRatio()))
            .append(',').append(String.format("%.0f", s.readsPerSecond())).append('\n');
        x.add((double) s.ops());
        y.add(s.hitRatio());
        r.add(s.readsPerSecond());
      }
      if (!x.isEmpty()) {
        addSeries(hit, e.getKey(), x, y, i);
        addSeries(rate, e.getKey(), x, r, i);
      }
      i++;
    }
    Files.writeString(out.resolve("hit-ratio.csv"), csv.toString(), StandardCharsets.UTF_8);
    BitmapEncoder.saveBitmap(hit, out.resolve("hit-ratio.png").toString(), BitmapFormat.PNG);
    BitmapEncoder.saveBitmap(rate, out.resolve("reads-per-second.png").toString(), BitmapFormat.PNG);
  }

  private static XYChart chart(String title, String yTitle) {
    XYChart c = new XYChartBuilder().width(900).height(450).title(title).xAxisTitle("operations").yAxisTitle(yTitle).build();
    Charts.style(c.getStyler());
    return c;
  }

  private static void addSeries(XYChart c, String name, List<Double> x, List<Double> y, int i) {
    XYSeries series = c.addSeries(name, x, y);
    series.setLineColor(Charts.color(i));
    series.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
  }

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "lsbm-hit-ratio");
    int records = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
    long ops = args.length > 2 ? Long.parseLong(args[2]) : 400_000;
    List<String> trees = List.of((args.length > 3 ? args[3] : "leveled,lsbm").split(","));
    // the tree that runs first pays the JIT's warm-up: round 2 runs them in the reverse order
    int rounds = Integer.getInteger("iam.hit-ratio.rounds", 1);
    Params p = Params.fromSystemProperties(records, ops);
    System.out.println(p);
    Map<String, Run> byTree = new LinkedHashMap<>();
    Map<String, List<Run>> all = new LinkedHashMap<>();
    for (int round = 0; round < rounds; round++) {
      List<String> order = new ArrayList<>(trees);
      if (round % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      for (String tree : order) {
        Run run;
        // each run's store is scratch: deleted afterwards unless -Diam.hit-ratio.keep=true (then named on stderr)
        try (RunDir dir = RunDir.of(null, "hit-ratio-" + tree, Boolean.getBoolean("iam.hit-ratio.keep"),
            new java.io.PrintWriter(System.err, true), "hit-ratio " + tree)) {
          Jvm.releaseHeap();
          run = run(tree, dir.path(), p);
        }
        byTree.putIfAbsent(tree, run);
        all.computeIfAbsent(tree, t -> new ArrayList<>()).add(run);
        if (Boolean.getBoolean("iam.hit-ratio.describe")) {
          System.out.println(tree + ":\n" + run.describe());
        }
        System.out.printf("round %d, %s: %d samples, hit ratio mean %.3f, steady (median) %.3f, min %.3f (%.0f%% of steady), "
            + "%d samples >10%% below steady; %.0f reads/s, %.0f ops/s%n", round + 1, tree,
            run.samples().size(), run.meanHitRatio(), run.steadyHitRatio(), run.minHitRatio(),
            100 * run.minHitRatio() / run.steadyHitRatio(), run.dips(), run.readsPerSecond(), run.opsPerSecond(p.ops()));
        ReadCosts c = run.costs();
        System.out.printf("  reads that hit: %d at %.2f us; reads that missed: %d at %.1f us; block misses per read %.4f%n",
            c.hitReads(), c.microsPerHitRead(), c.missReads(), c.microsPerMissRead(), c.blockMissesPerRead());
      }
    }
    if (all.containsKey("leveled") && all.containsKey("lsbm")) {
      System.out.printf("lsbm / leveled over %d round(s): reads/s %.2fx (geometric mean of the rounds), hit ratio mean %+.3f%n",
          rounds, geometricMean(all.get("lsbm")) / geometricMean(all.get("leveled")),
          all.get("lsbm").stream().mapToDouble(Run::meanHitRatio).average().orElse(0)
              - all.get("leveled").stream().mapToDouble(Run::meanHitRatio).average().orElse(0));
    }
    write(out, byTree);
    System.out.println("wrote " + out.resolve("hit-ratio.csv") + ", hit-ratio.png and reads-per-second.png (round 1)");
  }

  private static double geometricMean(List<Run> runs) {
    return Math.exp(runs.stream().mapToDouble(r -> Math.log(r.readsPerSecond())).average().orElse(0));
  }

  private static byte[] key(int i) {
    return String.format("user%09d", i).getBytes(StandardCharsets.UTF_8);
  }

  /** A key no load or earlier insert wrote, sorting right after loaded key {@code i}. */
  private static byte[] newKey(int i, long op) {
    return String.format("user%09d-%d", i, op).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(SplittableRandom random, int bytes) {
    byte[] v = new byte[bytes];
    RandomBytes.fill(random, v);
    return v;
  }
}
