package io.iam.bench.cli;

import io.iam.bench.cli.options.JsonOption;
import io.iam.bench.cli.options.ProgressOption;
import io.iam.bench.host.FixedBytesCalibration;
import io.iam.bench.host.HostExperiment;
import io.iam.bench.host.HostExperimentProvider;
import io.iam.bench.host.HostPoint;
import io.iam.bench.host.HostRun;
import io.iam.bench.host.HostSweepCharts;
import io.iam.bench.host.HostSweepPlan;
import io.iam.bench.host.HostSweepRow;
import io.iam.bench.util.Json;
import io.iam.bench.util.Progress;
import io.iam.bench.util.Sizes;
import io.iam.core.option.InvalidOptionsException;
import io.iam.core.policy.MergePolicy;
import io.iam.core.sim.SimulationResult;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.core.util.DaemonThreads;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code iam host-experiment}: the bounded-depth paper's experiment in a real host. The host makes
 * {@code --flushes} flushes of equal size under the policy and counts what it wrote; the simulator
 * then replays the host's own flush sizes under the same policy (a flushed component is written,
 * then merged, as hosts do), and both are printed side by side. Before the points, a short
 * calibration run measures the bytes each of the host's components holds whatever its data ({@link
 * FixedBytesCalibration}), which the simulator's merges write once.
 */
@Command(
    name = "host-experiment",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Runs a merge policy in a real host (the embedded AsterixDB, or HBase) for N equal flushes,"
          + " and prints its write amplification, component counts, merges and merge time beside"
          + " the simulator's for the same flush sizes. With --sweep, every policy at every k"
          + " (the bounded-depth paper's Fig. 2), with charts.",
      ""
    })
public final class HostExperimentCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  /** The hosts to choose from: those on the class path, or a test's. */
  private final Supplier<Map<String, HostExperiment>> hosts;

  public HostExperimentCommand() {
    this(HostExperimentProvider::all);
  }

  HostExperimentCommand(Supplier<Map<String, HostExperiment>> hosts) {
    this.hosts = hosts;
  }

  @Option(names = "--host", paramLabel = "NAME", required = true,
      description = "The host: one of the hosts on the class path (asterixdb, hbase).")
  String host;

  @Mixin PolicyArgs policyArgs = new PolicyArgs();

  @Option(names = "--flushes", paramLabel = "N", defaultValue = "1000",
      description = "Flushes to make. Default: ${DEFAULT-VALUE}.")
  int flushes;

  @Option(names = "--records-per-flush", paramLabel = "N", defaultValue = "100",
      description = "New records written before each flush. Default: ${DEFAULT-VALUE}.")
  int recordsPerFlush;

  @Option(names = "--value-size", paramLabel = "BYTES", defaultValue = "800",
      description = "Bytes of each record's value. Default: ${DEFAULT-VALUE}.")
  int valueBytes;

  @Option(names = "--ncs", paramLabel = "N", defaultValue = "1",
      description = "AsterixDB: node controllers of the embedded instance, one partition each; each partition runs"
          + " the policy and makes --flushes flushes, and is reported and simulated on its own. Default: ${DEFAULT-VALUE}.")
  int nodes;

  @Option(names = "--fixed-bytes", paramLabel = "BYTES|measure", defaultValue = "measure",
      description = "Bytes of each of the host's components that do not grow with its data (metadata pages, part-filled"
          + " last pages), which a merge writes once instead of once per input; the simulator's merges write the sum"
          + " of their inputs less these for every input after the first. 'measure' runs a calibration of "
          + FixedBytesCalibration.FLUSHES + " flushes under constant k=1 first; 0 is the cost model's plain sum."
          + " Default: ${DEFAULT-VALUE}.")
  String fixedBytes;

  @Mixin JsonOption json = new JsonOption();

  @Mixin ProgressOption progress = new ProgressOption();

  @Option(names = "--sweep", description = "Run every policy of --policies at every k of --ks, then every"
      + " baseline at its defaults, instead of one policy; needs --out.")
  boolean sweep;

  @Option(names = "--policies", paramLabel = "LIST", split = ",",
      description = "The sweep's depth-bounded policies. Default: constant,bigtable,exploring,minlatency,"
          + "binomial,iam-stack.")
  List<String> policies = HostSweepPlan.POLICIES;

  @Option(names = "--ks", paramLabel = "LIST", split = ",",
      description = "The sweep's k. Default: 3,4,5,6,7,8,10.")
  List<Integer> ks = HostSweepPlan.KS;

  @Option(names = "--baselines", paramLabel = "LIST", split = ",",
      description = "The sweep's baselines, run once each at their defaults (AsterixDB's own policies)."
          + " Default: prefix,concurrent. Give --baselines= for none.")
  List<String> baselines = HostSweepPlan.BASELINES;

  @Option(names = "--parallel", paramLabel = "N", defaultValue = "1",
      description = "Points of the sweep that run side by side, each in a store of its own (asterixdb: up to 2)."
          + " Default: ${DEFAULT-VALUE}.")
  int parallel;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Where the sweep writes points.jsonl (a line per point as it completes) and its two charts."
          + " A sweep given a directory that holds points.jsonl goes on with it: the points there are not run"
          + " again, and the summary and charts take in every point there.")
  Path out;

  @Override
  public Integer call() throws Exception {
    Map<String, HostExperiment> known = hosts.get();
    HostExperiment experiment = known.get(host);
    if (experiment == null) {
      throw usage("--host " + host + " is not one of " + known.keySet()
          + (known.isEmpty() ? " (run through ./iam, which puts the host modules on the class path)" : ""));
    }
    inRange("--flushes", flushes, 1);
    inRange("--records-per-flush", recordsPerFlush, 1);
    inRange("--value-size", valueBytes, 1);
    inRange("--ncs", nodes, 1);
    // The JSON line is printed once the host has stopped: a host may print while it stops (HBase's
    // master lists its threads on stdout), and the JSON must be the last line.
    List<String> last = new ArrayList<>();
    int code;
    try (experiment) {
      code = sweep ? sweep(experiment, last) : single(experiment, last);
    }
    PrintWriter o = spec.commandLine().getOut();
    last.forEach(o::println);
    o.flush();
    return code;
  }

  private int single(HostExperiment experiment, List<String> last) throws Exception {
    ParseResult given = spec.commandLine().getParseResult();
    for (String option : List.of("--policies", "--ks", "--baselines", "--out")) {
      if (given.hasMatchedOption(option)) {
        throw usage(option + " is an option of --sweep");
      }
    }
    MergePolicy p;
    try {
      p = policyArgs.create();
    } catch (InvalidOptionsException e) {
      throw usage(e.getMessage());
    }
    String k = p.options().asStrings().get(PolicyChoice.K_KEY);
    HostSweepPlan.Point point = new HostSweepPlan.Point(p.name(), k == null ? null : Integer.valueOf(k));
    PrintWriter o = spec.commandLine().getOut();
    FixedBytesCalibration fixed = calibrate(experiment, o);
    HostRun run;
    try (Progress bar = Progress.over(host + " " + p.name(), flushes, "flushes", 0, progress.enabled())) {
      run = experiment.run(spec(p), bar::stepTo);
    }
    HostPoint result = HostPoint.of(point, policyArgs::create, run, fixed.fixedBytes());
    print(o, result);
    if (json.enabled()) {
      last.add(Json.line(json(result)));
    }
    o.flush();
    return 0;
  }

  private int sweep(HostExperiment experiment, List<String> last) throws Exception {
    ParseResult given = spec.commandLine().getParseResult();
    for (String option : List.of("--policy", "--k", "-o")) {
      if (given.hasMatchedOption(option)) {
        throw usage(option + " chooses one policy; --sweep runs --policies at --ks and --baselines");
      }
    }
    if (out == null) {
      throw usage("--sweep needs --out DIR for its points and charts");
    }
    HostSweepPlan plan;
    try {
      plan = HostSweepPlan.of(policies, ks, baselines);
    } catch (InvalidOptionsException e) {
      throw usage(e.getMessage());
    }
    inRange("--parallel", parallel, 1);
    if (parallel > experiment.maxParallelRuns()) {
      throw usage("--parallel " + parallel + " is out of range: " + host + " runs at most "
          + experiment.maxParallelRuns() + " points side by side");
    }
    Files.createDirectories(out);
    Path lines = out.resolve("points.jsonl");
    List<HostSweepRow> rows = previousRows(lines);
    Set<String> done = new HashSet<>();
    rows.forEach(r -> done.add(r.label()));
    List<HostSweepPlan.Point> points = plan.points().stream().filter(p -> !done.contains(p.label())).toList();
    PrintWriter o = spec.commandLine().getOut();
    long start = System.nanoTime();
    FixedBytesCalibration fixed = points.isEmpty() ? FixedBytesCalibration.given(0) : calibrate(experiment, o);
    o.printf(Locale.ROOT, "%s: %d points of %d flushes (%d records of %d bytes each)%s; points in %s%n", host,
        points.size(), flushes, recordsPerFlush, valueBytes,
        rows.isEmpty() ? "" : ", " + rows.size() + " more there already", lines);
    o.printf(Locale.ROOT, "%-18s %9s %9s %7s %8s %8s %6s %6s %8s %8s%n", "policy", "WA", "sim. WA", "diff",
        "comps", "sim.", "max", "sim.", "merges", "time");
    o.flush();
    long[] flushed = new long[points.size()];
    List<String> failed = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(parallel, DaemonThreads.named("iam-host-sweep-"));
    try (Progress bar =
            Progress.over(host + " sweep", (long) flushes * points.size(), "flushes", 0, progress.enabled());
        BufferedWriter w = Files.newBufferedWriter(lines, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < points.size(); i++) {
        int index = i;
        running.add(pool.submit(() -> {
          HostSweepPlan.Point point = points.get(index);
          try {
            HostRun run = experiment.run(spec(PolicyChoice.create(point.policy(), point.k(), Map.of())), f -> {
              synchronized (flushed) {
                flushed[index] = f;
                bar.stepTo(Arrays.stream(flushed).sum());
              }
            });
            HostPoint p = HostPoint.of(point, () -> PolicyChoice.create(point.policy(), point.k(), Map.of()), run,
                fixed.fixedBytes());
            HostSweepRow r = p.row();
            synchronized (rows) {
              rows.add(r);
              w.write(Json.line(json(p)));
              w.newLine();
              w.flush();
              o.printf(Locale.ROOT, "%-18s %9.3f %9.3f %+6.1f%% %8.3f %8.3f %6d %6d %8d %7.0fs%n", point.label(),
                  r.writeAmplification(), r.simulatedWriteAmplification(), 100 * r.writeAmplificationDifference(),
                  r.averageComponents(), r.simulatedAverageComponents(), run.maxComponents(),
                  p.simulated().maxComponents(), run.mergeLengths().size(), run.elapsedMillis() / 1000.0);
              o.flush();
            }
          } catch (IOException | RuntimeException e) {
            synchronized (rows) {
              failed.add(point.label() + ": " + e);
              o.printf(Locale.ROOT, "%-18s failed: %s (the other points go on; a sweep in the same --out runs it again)%n",
                  point.label(), e);
              o.flush();
            }
          }
          return null;
        }));
      }
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (ExecutionException e) {
          throw e.getCause() instanceof Exception c ? c : e;
        }
      }
    } finally {
      pool.shutdownNow();
    }
    List<HostSweepRow> all = rows.stream().sorted(Comparator.comparingInt((HostSweepRow r) -> order(r.policy()))
        .thenComparing(HostSweepRow::policy).thenComparing(r -> r.k() == null ? Integer.MAX_VALUE : r.k())).toList();
    long within5 = all.stream().filter(r -> Math.abs(r.writeAmplificationDifference()) <= 0.05).count();
    long within03 = all.stream().filter(r -> Math.abs(r.componentsDifference()) <= 0.3).count();
    double worst = all.stream().mapToDouble(r -> Math.abs(r.writeAmplificationDifference())).max().orElse(0);
    double minutes = (System.nanoTime() - start) / 60e9;
    o.printf(Locale.ROOT, "%d points in %.1f min; of the %d points in %s, write amplification within 5%% of the"
        + " simulator's: %d (largest difference %.1f%%); average components within 0.3: %d%n", points.size(), minutes,
        all.size(), lines, within5, 100 * worst, within03);
    String subtitle = String.format(Locale.ROOT, "%,d flushes of about %s", flushes,
        Sizes.human(all.isEmpty() ? 0 : all.get(0).bytesFlushed() / Math.max(1, flushes)));
    for (Path chart : HostSweepCharts.draw(out, host, all, subtitle)) {
      o.println("chart: " + chart);
    }
    if (json.enabled()) {
      ObjectNode summary = Json.object();
      summary.put("host", host);
      summary.put("flushes", flushes);
      summary.put("points", all.size());
      summary.put("minutes", minutes);
      summary.put("withinFivePercent", within5);
      summary.put("componentsWithinPointThree", within03);
      Json.putFinite(summary, "largestDifference", worst);
      summary.put("failed", failed.size());
      last.add(Json.line(summary));
    }
    o.flush();
    if (!failed.isEmpty()) {
      spec.commandLine().getErr().println("host-experiment: " + failed.size() + " points failed: " + failed);
      return 1;
    }
    return 0;
  }

  /** Where a policy's rows go in the summary: the full sweep's order, then the others by name. */
  private static int order(String policy) {
    List<String> known = new ArrayList<>(HostSweepPlan.POLICIES);
    known.addAll(HostSweepPlan.BASELINES);
    int i = known.indexOf(policy);
    return i < 0 ? known.size() : i;
  }

  /** The rows an earlier sweep left in {@code lines}, which must be of as many flushes as this one. */
  private List<HostSweepRow> previousRows(Path lines) throws IOException {
    List<HostSweepRow> rows = new ArrayList<>();
    if (!Files.exists(lines)) {
      return rows;
    }
    ObjectMapper mapper = new ObjectMapper();
    for (String line : Files.readAllLines(lines)) {
      if (line.isBlank()) {
        continue;
      }
      HostSweepRow r = HostSweepRow.fromJson(mapper.readTree(line));
      if (r.flushes() != flushes) {
        throw usage(lines + " holds points of " + r.flushes() + " flushes; give --flushes " + r.flushes()
            + " to go on with that sweep, or another --out");
      }
      rows.add(r);
    }
    return rows;
  }

  /** The fixed bytes --fixed-bytes gives, or measures in {@code experiment}, and prints them. */
  private FixedBytesCalibration calibrate(HostExperiment experiment, PrintWriter o) throws IOException {
    FixedBytesCalibration c;
    if ("measure".equals(fixedBytes)) {
      c = FixedBytesCalibration.measure(experiment, recordsPerFlush, valueBytes, nodes);
    } else {
      try {
        c = FixedBytesCalibration.given(Long.parseLong(fixedBytes.trim()));
      } catch (NumberFormatException e) {
        throw usage("--fixed-bytes '" + fixedBytes + "' is neither a number of bytes nor 'measure'");
      }
    }
    o.printf(Locale.ROOT, "fixed bytes of a component: %,d (%s)%n", c.fixedBytes(), c.source());
    o.flush();
    return c;
  }

  private HostExperiment.Spec spec(MergePolicy p) {
    Map<String, String> policyOptions = new LinkedHashMap<>(p.options().asStrings());
    return new HostExperiment.Spec(p.name(), policyOptions, flushes, recordsPerFlush, valueBytes, nodes);
  }

  private static void print(PrintWriter out, HostPoint r) {
    HostRun run = r.run();
    out.println(run.host() + ": " + run.describe() + ", " + run.flushLengths().size() + " flushes of "
        + Sizes.human(run.bytesFlushed() / Math.max(1, run.flushLengths().size())) + " on average"
        + (r.nodes().isEmpty() ? "" : " over " + r.nodes().size() + " partitions") + ", in "
        + String.format(Locale.ROOT, "%.1f s", run.elapsedMillis() / 1000.0));
    if (!r.nodes().isEmpty()) {
      out.println("all partitions (write amplification over their bytes; components averaged over them):");
    }
    table(out, r);
    r.nodes().forEach((node, p) -> {
      out.println(node + ": " + p.run().flushLengths().size() + " flushes of "
          + Sizes.human(p.run().bytesFlushed() / Math.max(1, p.run().flushLengths().size())) + " on average");
      table(out, p);
    });
  }

  private static void table(PrintWriter out, HostPoint r) {
    HostRun run = r.run();
    SimulationResult sim = r.simulated();
    out.printf(Locale.ROOT, "%-22s %14s %14s %10s%n", "", "measured", "simulated", "difference");
    row(out, "write amplification", run.writeAmplification(), sim.writeAmplification(), true);
    row(out, "average components", run.averageComponents(), sim.averageComponents(), false);
    row(out, "max components", run.maxComponents(), sim.maxComponents(), false);
    row(out, "merges", run.mergeLengths().size(), sim.merges(), false);
    double seconds = run.mergeMillis() / 1000.0;
    out.printf(Locale.ROOT, "%-22s %14s  (%s merged%s)%n", "merge time", String.format(Locale.ROOT, "%.1f s", seconds),
        Sizes.human(run.bytesMerged()), seconds > 0 ? ", " + Sizes.human((long) (run.bytesMerged() / seconds)) + "/s" : "");
    double saved = run.bytesSavedPerMergedComponent();
    if (Double.isFinite(saved)) {
      out.printf(Locale.ROOT, "a merge wrote %s %s than the sum of its inputs per input after the first"
          + " (bytes of a component that do not grow with its data; the simulator's merges wrote %s less)%n",
          Sizes.human((long) Math.abs(saved)), saved >= 0 ? "less" : "more", Sizes.human(r.fixedBytes()));
    }
  }

  private static void row(PrintWriter out, String label, double measured, double simulated, boolean relative) {
    String diff = relative
        ? String.format(Locale.ROOT, "%+.1f%%", simulated == 0 ? 0 : 100 * (measured - simulated) / simulated)
        : String.format(Locale.ROOT, "%+.3f", measured - simulated);
    out.printf(Locale.ROOT, "%-22s %14.3f %14.3f %10s%n", label, measured, simulated, diff);
  }

  static ObjectNode json(HostPoint r) {
    HostRun run = r.run();
    SimulationResult sim = r.simulated();
    ObjectNode o = Json.object();
    o.put("host", run.host());
    o.put("policy", sim.policy());
    if (r.point().k() != null) {
      o.put("k", r.point().k());
    }
    ObjectNode options = o.putObject("options");
    sim.options().forEach(options::put);
    o.put("describe", run.describe());
    figures(o, r);
    if (!r.nodes().isEmpty()) {
      com.fasterxml.jackson.databind.node.ArrayNode nodes = o.putArray("nodes");
      r.nodes().forEach((node, p) -> figures(nodes.addObject().put("node", node), p));
    }
    return o;
  }

  /** The measured and simulated figures of a point, or of one partition of it. */
  private static void figures(ObjectNode o, HostPoint r) {
    HostRun run = r.run();
    SimulationResult sim = r.simulated();
    o.put("flushes", run.flushesPerNode());
    o.put("bytesFlushed", run.bytesFlushed());
    o.put("bytesMerged", run.bytesMerged());
    Json.putFinite(o, "writeAmplification", run.writeAmplification());
    Json.putFinite(o, "averageComponents", run.averageComponents());
    o.put("maxComponents", run.maxComponents());
    o.put("merges", run.mergeLengths().size());
    o.put("mergeMillis", run.mergeMillis());
    o.put("elapsedMillis", run.elapsedMillis());
    Json.putFinite(o, "bytesSavedPerMergedComponent", run.bytesSavedPerMergedComponent());
    ObjectNode s = o.putObject("simulated");
    Json.putFinite(s, "writeAmplification", sim.writeAmplification());
    Json.putFinite(s, "averageComponents", sim.averageComponents());
    s.put("maxComponents", sim.maxComponents());
    s.put("merges", sim.merges());
    s.put("fixedBytes", r.fixedBytes());
    s.put("accounting", CliConverters.name(sim.accounting()));
  }

  private void inRange(String option, int value, int min) {
    if (value < min) {
      throw usage(option + " " + value + " is out of range: allowed " + min + " or more");
    }
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }
}
