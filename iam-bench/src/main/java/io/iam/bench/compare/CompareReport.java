package io.iam.bench.compare;

import static io.iam.bench.util.Sizes.human;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.bench.util.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a comparison's {@code report.md}, {@code report.html} (the same tables, the charts as
 * {@code <img>}) and {@code results.json} (every run's JSON object, and the summary the tables
 * show). Every figure in the tables is formatted by one of the methods here, from the summary.
 */
final class CompareReport {

  static final String MARKDOWN = "report.md";
  static final String HTML = "report.html";
  static final String RESULTS = "results.json";

  private static final double MIB = 1024.0 * 1024.0;

  /**
   * What the report says about the comparison besides its figures.
   *
   * @param commandLine the exact {@code iam compare} command line
   * @param launcher how the runs were started
   */
  record Context(String commandLine, Instant start, long wallMillis, Machine machine, double loadAverageAtEnd,
      ComparePlan plan, String launcher) {}

  private CompareReport() {}

  /** Writes the three files into {@code dir} (the charts are already there). */
  static void write(Path dir, Context c, CompareSummary s, List<CompareSummary.Result> results) throws IOException {
    ReportDoc doc = doc(c, s, results);
    String title = "iam compare: " + String.join(", ", s.engines());
    Files.writeString(dir.resolve(MARKDOWN), doc.markdown(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve(HTML), doc.html(title), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve(RESULTS), Json.line(json(c, s, results)) + "\n", StandardCharsets.UTF_8);
  }

  static ReportDoc doc(Context c, CompareSummary s, List<CompareSummary.Result> results) {
    ComparePlan.Budget b = c.plan().budget();
    ReportDoc d = new ReportDoc();
    d.heading(1, "iam compare: " + String.join(", ", s.engines()));
    d.paragraph("**Date:** " + c.start() + ". **Wall time:** " + duration(c.wallMillis()) + ". **Machine:** "
        + c.machine().describe() + ". **Load average:** " + load(c.machine().loadAverage()) + " at the start, "
        + load(c.loadAverageAtEnd()) + " at the end.");
    d.paragraph("**Command:**");
    d.code(c.commandLine());
    List<String> tests = s.workloads().stream().flatMap(w -> PaperTest.named(w).stream())
        .map(t -> "`" + t.cliName() + "` (" + t.description() + ")").toList();
    if (!tests.isEmpty()) {
      d.paragraph("The IAM paper's tests run `iam load` instead, with the same records, memtable and cache: "
          + String.join(", ", tests) + ". For `seqread`, ops/s counts entries read per second.");
    }
    d.paragraph(f("Each run is `iam ycsb` (or `iam load`) in a JVM of its own, started as `%s`. Every engine gets"
            + " the same data and budgets: %,d records of 1 KiB, %,d operations (workload g: %,d), %d client"
            + " thread%s, memtable %s, cache %s%s. Workloads run in the order given, the engines alternating"
            + " within each; %d repeat%s%s."
            + " Figures are medians over the repeats that succeeded; spread is (max - min) / median of ops/s."
            + " Throughput is normalized to %s on the same workload.",
        c.launcher(), b.records(), b.operations(), b.gOperations(), b.threads(), b.threads() == 1 ? "" : "s",
        human(b.memtableBytes()), human(b.cacheBytes()), options(b), c.plan().repeats(),
        c.plan().repeats() == 1 ? "" : "s", c.plan().repeats() > 1 ? ", the engine order reversed on even ones" : "",
        s.baseline()));

    d.heading(2, "Throughput, write amplification, disk");
    d.table(summaryTable(s));
    d.image(CompareCharts.THROUGHPUT, "throughput per workload normalized to " + s.baseline());
    d.image(CompareCharts.DISK, "disk space per engine after each workload");

    d.heading(2, "Write amplification by level");
    d.paragraph("Bytes written into each level (flushes into L0, compactions into the others) over the user bytes"
        + " put, over the load and the workload, after a settle; the WAL is not counted. The engines number"
        + " their levels each their own way.");
    int levels = s.maxLevels();
    List<String> header = new ArrayList<>(List.of("workload", "engine", "total"));
    List<Boolean> numeric = new ArrayList<>(List.of(false, false, true));
    for (int l = 0; l < levels; l++) {
      header.add("L" + l);
      numeric.add(true);
    }
    List<List<String>> rows = new ArrayList<>();
    for (CompareSummary.Cell cell : s.cells()) {
      List<String> row = new ArrayList<>(List.of(cell.workload(), cell.engine(), ratio(cell.writeAmplification())));
      for (int l = 0; l < levels; l++) {
        row.add(l < cell.levels().size() ? ratio(cell.levels().get(l)) : "-");
      }
      rows.add(row);
    }
    d.table(new ReportDoc.Table(header, numeric, rows));
    d.image(CompareCharts.WRITE_AMPLIFICATION, "write amplification per engine, stacked by level");

    d.heading(2, "Latency");
    d.paragraph("Microseconds per operation of the workload's transaction phase (of the load phase for `load`).");
    rows = new ArrayList<>();
    for (String w : s.workloads()) {
      for (String op : s.operations(w)) {
        for (String e : s.engines()) {
          Map<String, Double> l = s.cell(w, e).latency().get(op);
          List<String> row = new ArrayList<>(List.of(w, op, e));
          for (String p : CompareSummary.PERCENTILES) {
            row.add(l == null ? "-" : micros(l.get(p)));
          }
          rows.add(row);
        }
      }
    }
    header = new ArrayList<>(List.of("workload", "operation", "engine"));
    header.addAll(CompareSummary.PERCENTILE_LABELS);
    d.table(new ReportDoc.Table(header, List.of(false, false, false, true, true, true, true), rows));
    d.image(CompareCharts.LATENCY, "latency percentiles per operation type and engine");

    d.heading(2, "Runs");
    rows = new ArrayList<>();
    for (CompareSummary.Result r : results) {
      ChildLauncher.Outcome o = r.outcome();
      String status = o == null ? "not run" : o.failed() ? "FAILED: " + o.why() : "ok";
      rows.add(List.of(Integer.toString(r.run().index()), Integer.toString(r.run().repeat()), r.run().workload(),
          r.run().engine(), status, o == null || o.failed() ? "-" : ops(o.json().path("opsPerSecond").asDouble()),
          o == null ? "-" : f("%.1f", o.millis() / 1000.0), "`iam " + String.join(" ", r.run().args()) + "`"));
    }
    d.table(new ReportDoc.Table(List.of("#", "repeat", "workload", "engine", "result", "ops/s", "wall s", "command"),
        List.of(true, true, false, false, false, true, true, false), rows));
    return d;
  }

  /** Workload, engine, runs, ops/s, spread, throughput over the baseline's, write amplification, disk. */
  static ReportDoc.Table summaryTable(CompareSummary s) {
    List<List<String>> rows = new ArrayList<>();
    for (CompareSummary.Cell cell : s.cells()) {
      rows.add(List.of(cell.workload(), cell.engine(), runs(cell), ops(cell.opsPerSecond().median()),
          percent(cell.opsPerSecond().spread()), ratio(cell.normalized()), ratio(cell.writeAmplification()),
          mib(cell.diskBytes())));
    }
    return new ReportDoc.Table(List.of("workload", "engine", "runs ok", "ops/s", "spread", "x " + s.baseline(),
        "write amp.", "disk MiB"), List.of(false, false, true, true, true, true, true, true), rows);
  }

  static ObjectNode json(Context c, CompareSummary s, List<CompareSummary.Result> results) {
    ObjectNode o = Json.object();
    o.put("command", c.commandLine());
    o.put("date", c.start().toString());
    o.put("wallMillis", c.wallMillis());
    c.machine().putJson(o.putObject("machine"));
    o.put("loadAverageAtEnd", c.loadAverageAtEnd());
    o.put("launcher", c.launcher());
    ComparePlan.Budget b = c.plan().budget();
    ObjectNode settings = o.putObject("settings");
    settings.put("records", b.records());
    settings.put("operations", b.operations());
    settings.put("gOperations", b.gOperations());
    settings.put("threads", b.threads());
    settings.put("memtableBytes", b.memtableBytes());
    settings.put("cacheBytes", b.cacheBytes());
    settings.put("repeats", c.plan().repeats());
    settings.put("baseline", s.baseline());
    b.options().forEach(settings.putObject("options")::put);
    Json.array(o, "summary", s.cells(), (n, cell) -> {
      n.put("workload", cell.workload());
      n.put("engine", cell.engine());
      n.put("runs", cell.runs());
      cell.failures().forEach(n.putArray("failures")::add);
      Json.putFinite(n, "opsPerSecond", cell.opsPerSecond().median());
      Json.putFinite(n, "opsPerSecondMin", cell.opsPerSecond().min());
      Json.putFinite(n, "opsPerSecondMax", cell.opsPerSecond().max());
      Json.putFinite(n, "opsPerSecondSpread", cell.opsPerSecond().spread());
      Json.putFinite(n, "normalizedThroughput", cell.normalized());
      Json.putFinite(n, "writeAmplification", cell.writeAmplification());
      Json.putFinite(n, "diskBytes", cell.diskBytes());
      cell.levels().forEach(n.putArray("levelWriteAmplification")::add);
      ObjectNode latency = n.putObject("latencyMicros");
      cell.latency().forEach((op, ps) -> {
        ObjectNode one = latency.putObject(op);
        ps.forEach((p, v) -> Json.putFinite(one, p, v));
      });
    });
    Json.array(o, "runs", results, (n, r) -> {
      n.put("index", r.run().index());
      n.put("repeat", r.run().repeat());
      n.put("workload", r.run().workload());
      n.put("engine", r.run().engine());
      n.put("command", "iam " + String.join(" ", r.run().args()));
      ChildLauncher.Outcome out = r.outcome();
      if (out == null) {
        n.put("status", "not run");
        return;
      }
      n.put("status", out.failed() ? "failed" : "ok");
      n.put("exitCode", out.exitCode());
      n.put("millis", out.millis());
      if (out.lastStderrLine() != null) {
        n.put("lastStderrLine", out.lastStderrLine());
      }
      if (out.json() != null) {
        n.set("result", out.json());
      }
    });
    return o;
  }

  private static String runs(CompareSummary.Cell cell) {
    int all = cell.runs() + cell.failures().size();
    return cell.failures().isEmpty() ? Integer.toString(all) : cell.runs() + " of " + all + " (FAILED)";
  }

  private static String options(ComparePlan.Budget b) {
    List<String> parts = new ArrayList<>();
    b.options().forEach((k, v) -> parts.add(k + "=" + v));
    if (b.policy() != null) {
      parts.add("policy " + b.policy());
    }
    if (b.k() != null) {
      parts.add("k " + b.k());
    }
    return parts.isEmpty() ? "" : ", options " + String.join(", ", parts);
  }

  /** Throughput: {@code 12,345}. */
  static String ops(double v) {
    return Double.isFinite(v) ? f("%,.0f", v) : "-";
  }

  /** Ratios and write amplification: {@code 1.00}. */
  static String ratio(double v) {
    return Double.isFinite(v) ? f("%.2f", v) : "-";
  }

  /** Bytes as MiB: {@code 27.51}. */
  static String mib(double bytes) {
    return Double.isFinite(bytes) ? f("%.2f", bytes / MIB) : "-";
  }

  /** Latency in µs: {@code 1,915.9}. */
  static String micros(double v) {
    return Double.isFinite(v) ? f("%,.1f", v) : "-";
  }

  /** A fraction as a percentage: {@code 3.2%}. */
  static String percent(double fraction) {
    return Double.isFinite(fraction) ? f("%.1f%%", fraction * 100) : "-";
  }

  private static String load(double average) {
    return average < 0 ? "unknown" : f("%.2f", average);
  }

  private static String duration(long millis) {
    long s = millis / 1000;
    return s >= 60 ? f("%d min %02d s", s / 60, s % 60) : f("%.1f s", millis / 1000.0);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
