package io.iam.bench.lsbm;

import io.iam.bench.util.Charts;
import io.iam.core.engine.IamStore;
import io.iam.core.engine.StoreOptions;
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
 * prints each store's statistics (levels, buffer lists, buffer hits) at the end of its run.
 */
public final class HitRatioOverTime {

  /** The run's shape. */
  public record Params(int records, int valueBytes, long ops, int sampleOps, double hotFraction, double writeFraction,
      String cache, String memtable, String levelBase, boolean inserts) {

    public static Params defaults(int records, long ops) {
      return new Params(records, 256, ops, Math.max(1000, (int) (ops / 100)), 0.02, 0.5, "4MiB", "1MiB", "4MiB",
          false);
    }

    /**
     * The defaults, with system properties over them: {@code iam.hit-ratio.hot} (the hot fraction
     * of the keys), {@code iam.hit-ratio.cache} (block cache size), {@code iam.hit-ratio.inserts}
     * ({@code true}: writes insert new keys spread over the key space instead of updating loaded
     * ones, so merges find no repeated data).
     */
    public static Params fromSystemProperties(int records, long ops) {
      Params d = defaults(records, ops);
      return new Params(records, d.valueBytes(), ops, d.sampleOps(),
          Double.parseDouble(System.getProperty("iam.hit-ratio.hot", Double.toString(d.hotFraction()))),
          d.writeFraction(), System.getProperty("iam.hit-ratio.cache", d.cache()), d.memtable(), d.levelBase(),
          Boolean.getBoolean("iam.hit-ratio.inserts"));
    }
  }

  /** One sample: operations so far, and the hit ratio of the block cache over the last interval. */
  public record Sample(long ops, double hitRatio) {}

  private HitRatioOverTime() {}

  /** Runs one tree in {@code dir} (created empty) and returns its samples. */
  public static List<Sample> run(String tree, Path dir, Params p) throws IOException {
    Map<String, String> options = Map.of("tree", tree, "block-cache-size", p.cache(), "memtable-size", p.memtable(),
        "target-file-size", p.memtable(), "level-base-size", p.levelBase(), "lsbm-trim-interval-ms", "200");
    SplittableRandom random = new SplittableRandom(42);
    List<Sample> samples = new ArrayList<>();
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(options))) {
      for (int i = 0; i < p.records(); i++) {
        store.put(key(random.nextInt(p.records())), value(random, p.valueBytes()));
      }
      store.flushAndSettle();
      int hot = Math.max(1, (int) (p.records() * p.hotFraction()));
      int hotStart = p.records() / 2;
      long hits = store.blockCache().hits();
      long misses = store.blockCache().misses();
      for (long op = 1; op <= p.ops(); op++) {
        if (random.nextDouble() < p.writeFraction()) {
          byte[] k = p.inserts() ? newKey(random.nextInt(p.records()), op) : key(random.nextInt(p.records()));
          store.put(k, value(random, p.valueBytes()));
        } else {
          store.get(key(hotStart + random.nextInt(hot)));
        }
        if (op % p.sampleOps() == 0) {
          long h = store.blockCache().hits();
          long m = store.blockCache().misses();
          long total = (h - hits) + (m - misses);
          samples.add(new Sample(op, total == 0 ? 0 : (double) (h - hits) / total));
          hits = h;
          misses = m;
        }
      }
      if (Boolean.getBoolean("iam.hit-ratio.describe")) {
        System.out.println(tree + ":\n" + store.describe());
      }
    }
    return samples;
  }

  /** Writes {@code hit-ratio.csv} and {@code hit-ratio.png} into {@code out}. */
  public static void write(Path out, Map<String, List<Sample>> byTree) throws IOException {
    Files.createDirectories(out);
    StringBuilder csv = new StringBuilder("tree,ops,hit_ratio\n");
    XYChart c = new XYChartBuilder().width(900).height(450)
        .title("Block cache hit ratio over time (hot reads, writes everywhere)")
        .xAxisTitle("operations").yAxisTitle("hit ratio").build();
    Charts.style(c.getStyler());
    int i = 0;
    for (Map.Entry<String, List<Sample>> e : byTree.entrySet()) {
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (Sample s : e.getValue()) {
        csv.append(e.getKey()).append(',').append(s.ops()).append(',').append(String.format("%.4f", s.hitRatio())).append('\n');
        x.add((double) s.ops());
        y.add(s.hitRatio());
      }
      if (!x.isEmpty()) {
        XYSeries series = c.addSeries(e.getKey(), x, y);
        series.setLineColor(Charts.color(i));
        series.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
      }
      i++;
    }
    Files.writeString(out.resolve("hit-ratio.csv"), csv.toString(), StandardCharsets.UTF_8);
    BitmapEncoder.saveBitmap(c, out.resolve("hit-ratio.png").toString(), BitmapFormat.PNG);
  }

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "lsbm-hit-ratio");
    int records = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
    long ops = args.length > 2 ? Long.parseLong(args[2]) : 400_000;
    String[] trees = (args.length > 3 ? args[3] : "leveled,lsbm").split(",");
    Params p = Params.fromSystemProperties(records, ops);
    Map<String, List<Sample>> byTree = new LinkedHashMap<>();
    for (String tree : trees) {
      Path dir = Files.createTempDirectory("iam-hit-ratio-" + tree);
      List<Sample> samples = run(tree, dir, p);
      byTree.put(tree, samples);
      double mean = samples.stream().mapToDouble(Sample::hitRatio).average().orElse(0);
      double min = samples.stream().mapToDouble(Sample::hitRatio).min().orElse(0);
      System.out.printf("%s: %d samples, mean hit ratio %.3f, min %.3f (store in %s)%n", tree, samples.size(), mean, min, dir);
    }
    write(out, byTree);
    System.out.println("wrote " + out.resolve("hit-ratio.csv") + " and " + out.resolve("hit-ratio.png"));
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
    random.nextBytes(v);
    return v;
  }
}
