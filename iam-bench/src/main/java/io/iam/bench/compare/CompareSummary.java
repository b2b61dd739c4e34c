package io.iam.bench.compare;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The figures of a comparison, one {@link Cell} per workload and engine: medians over the runs of
 * the repeats that succeeded, and throughput normalized to the baseline engine's of the same
 * workload. Pure: it reads the runs' JSON objects, nothing else.
 */
final class CompareSummary {

  /** The latency percentiles the report shows, as the JSON names them, and as people do. */
  static final List<String> PERCENTILES = List.of("p50", "p95", "p99", "p999");
  static final List<String> PERCENTILE_LABELS = List.of("p50", "p95", "p99", "p99.9");

  private final List<String> engines;
  private final List<String> workloads;
  private final String baseline;
  private final Map<String, Cell> cells = new LinkedHashMap<>();

  /**
   * One run and what it did.
   *
   * @param outcome null if it has not run
   */
  record Result(ComparePlan.Run run, ChildLauncher.Outcome outcome) {}

  /**
   * A median and the range around it.
   *
   * @param median NaN without values
   */
  record Stats(double median, double min, double max) {

    static Stats of(List<Double> values) {
      if (values.isEmpty()) {
        return new Stats(Double.NaN, Double.NaN, Double.NaN);
      }
      double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      int n = v.length;
      double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
      return new Stats(median, v[0], v[n - 1]);
    }

    /** {@code (max - min) / median}: 0 for one value, NaN without any. */
    double spread() {
      return median == 0 ? Double.NaN : (max - min) / median;
    }
  }

  /**
   * One engine on one workload.
   *
   * @param runs the runs that succeeded
   * @param failures why each failed run failed, "run 3: exit code 1: ..."
   * @param normalized {@code opsPerSecond.median} over the baseline's; NaN if either has none
   * @param levels write amplification of each level, top (0) first, medians
   * @param latency per operation type, per percentile of {@link #PERCENTILES}: medians in µs
   */
  record Cell(String workload, String engine, int runs, List<String> failures, Stats opsPerSecond,
      double normalized, double writeAmplification, double diskBytes, List<Double> levels,
      Map<String, Map<String, Double>> latency) {}

  CompareSummary(ComparePlan plan, List<Result> results) {
    this.engines = plan.engines();
    this.workloads = plan.workloads();
    this.baseline = plan.baseline();
    for (String w : workloads) {
      Map<String, Cell> raw = new LinkedHashMap<>();
      for (String e : engines) {
        raw.put(e, cell(w, e, results, Double.NaN));
      }
      double base = raw.get(baseline).opsPerSecond().median();
      for (String e : engines) {
        cells.put(key(w, e), cell(w, e, results, base));
      }
    }
  }

  List<String> engines() {
    return engines;
  }

  List<String> workloads() {
    return workloads;
  }

  String baseline() {
    return baseline;
  }

  Cell cell(String workload, String engine) {
    return cells.get(key(workload, engine));
  }

  /** Every cell, workload-major. */
  List<Cell> cells() {
    return List.copyOf(cells.values());
  }

  /** The operation types the runs of {@code workload} timed, in the order they first appear. */
  List<String> operations(String workload) {
    List<String> ops = new ArrayList<>();
    for (String e : engines) {
      for (String op : cell(workload, e).latency().keySet()) {
        if (!ops.contains(op)) {
          ops.add(op);
        }
      }
    }
    return ops;
  }

  /** The most levels any cell has. */
  int maxLevels() {
    return cells.values().stream().mapToInt(c -> c.levels().size()).max().orElse(0);
  }

  private static Cell cell(String workload, String engine, List<Result> results, double baselineOps) {
    List<JsonNode> ok = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (Result r : results) {
      if (!r.run().workload().equals(workload) || !r.run().engine().equals(engine) || r.outcome() == null) {
        continue;
      }
      if (r.outcome().failed()) {
        failures.add("run " + r.run().index() + ": " + r.outcome().why());
      } else {
        ok.add(r.outcome().json());
      }
    }
    Stats ops = stats(ok, j -> j.path("opsPerSecond").asDouble());
    double normalized = Double.isNaN(baselineOps) || baselineOps == 0 ? Double.NaN : ops.median() / baselineOps;
    int levels = ok.stream().mapToInt(j -> j.path("levels").size()).max().orElse(0);
    List<Double> levelWa = new ArrayList<>();
    for (int l = 0; l < levels; l++) {
      int level = l;
      levelWa.add(stats(ok, j -> j.path("levels").path(level).path("writeAmplification").asDouble(0)).median());
    }
    Map<String, Map<String, Double>> latency = new LinkedHashMap<>();
    for (JsonNode j : ok) {
      j.path("latencyMicros").fieldNames().forEachRemaining(op -> latency.putIfAbsent(op, new LinkedHashMap<>()));
    }
    for (Map.Entry<String, Map<String, Double>> op : latency.entrySet()) {
      for (String p : PERCENTILES) {
        List<JsonNode> having = ok.stream().filter(j -> j.path("latencyMicros").has(op.getKey())).toList();
        op.getValue().put(p, stats(having, j -> j.path("latencyMicros").path(op.getKey()).path(p).asDouble()).median());
      }
    }
    return new Cell(workload, engine, ok.size(), failures, ops, normalized,
        stats(ok, j -> j.path("writeAmplification").asDouble(Double.NaN)).median(),
        stats(ok, j -> j.path("diskBytes").asDouble()).median(), levelWa, latency);
  }

  private static Stats stats(List<JsonNode> runs, ToDoubleFunction<JsonNode> figure) {
    return Stats.of(Arrays.stream(runs.stream().mapToDouble(figure).toArray()).boxed().toList());
  }

  private static String key(String workload, String engine) {
    return workload + "\u0000" + engine;
  }
}
