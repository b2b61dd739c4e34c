package io.iam.bench.compare;

import io.iam.bench.cli.options.CacheOption;
import io.iam.bench.cli.options.ClientThreadsOption;
import io.iam.bench.cli.options.MemtableOption;
import io.iam.bench.cli.options.OptionDefaults;
import io.iam.bench.cli.options.ProgressOption;
import io.iam.bench.cli.options.RecordsOption;
import io.iam.bench.load.LoadTargets;
import io.iam.bench.util.Dirs;
import io.iam.bench.util.Progress;
import io.iam.bench.ycsb.YcsbCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code iam compare}: {@code iam ycsb} for every engine and workload, each in a JVM of its own, in one report. */
@Command(
    name = "compare",
    defaultValueProvider = CompareCommand.Defaults.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Runs 'iam ycsb --engine E --workload W' for every engine and workload, each in a new JVM of its own"
          + " (through the iam script if IAM_SCRIPT is set, so HBase and AsterixDB can be in one comparison),"
          + " with the same records, operations, threads, memtable and cache for every engine (a small memtable"
          + " by default, so that the data spans several levels); workload-major,"
          + " the engines alternating, the whole sweep --repeat times with the engine order reversed on every"
          + " other sweep.",
      "Writes into --out: report.md and report.html (throughput normalized to --baseline, write amplification"
          + " by level, latency percentiles, disk space, each run and its command), results.json (every run's"
          + " JSON) and PNG charts. A failed run is reported, the others still run, and the command exits 1.",
      ""
    })
public final class CompareCommand implements Callable<Integer> {

  /**
   * The default records: the default comparison (3 engines, 8 workloads, 24 runs) took 4 min 43 s on the
   * shared 2-core machine at a load average of 9-10 (docs/benchmarks.md); the target is about 10 minutes.
   */
  static final String DEFAULT_RECORDS = "50000";

  static final String DEFAULT_OPERATIONS = "50000";

  @Spec CommandSpec spec;

  @Option(names = "--engines", paramLabel = "ENGINE", split = ",", splitSynopsisLabel = ",",
      defaultValue = "iam,leveled,rocksdb",
      description = "Engines to compare, as 'iam ycsb --engine' names them. Default: ${DEFAULT-VALUE}.")
  List<String> engines;

  @Option(names = "--workloads", paramLabel = "W", split = ",", splitSynopsisLabel = ",",
      defaultValue = "load,a,b,c,d,e,f,g",
      description = "Workloads, as 'iam ycsb --workload' names them, and the IAM paper's tests run by 'iam load':"
          + " seqload (sequential load), seqread (full scans after a load), randload (random load, repeats"
          + " overwrite), overwrite (as many overwrites after a load). Default: ${DEFAULT-VALUE}.")
  List<String> workloads;

  @Option(names = "--out", paramLabel = "DIR", required = true,
      description = "Directory of the report, new or empty; created if missing.")
  Path out;

  @Mixin RecordsOption records = new RecordsOption();

  @Option(names = "--operations", paramLabel = "M", defaultValue = DEFAULT_OPERATIONS,
      description = "Operations of each workload's transaction phase. Default: ${DEFAULT-VALUE}.")
  long operations;

  @Option(names = "--g-operations", paramLabel = "M",
      description = "Operations of workload g, whose scans read up to 10,000 records each. Default: --operations / "
          + ComparePlan.LONG_SCAN_DIVISOR + ".")
  Long gOperations;

  @Mixin ClientThreadsOption threads = new ClientThreadsOption();

  @Mixin MemtableOption memtable = new MemtableOption();

  @Mixin CacheOption cache = new CacheOption();

  @Option(names = "--repeat", paramLabel = "R", defaultValue = "1",
      description = "Runs of the whole sweep; the report gives medians and the spread. Default: ${DEFAULT-VALUE}.")
  int repeat;

  @Option(names = "--baseline", paramLabel = "ENGINE",
      description = "Engine the throughput is normalized to. Default: the first of --engines.")
  String baseline;

  @Option(names = "--policy", paramLabel = "NAME",
      description = "Merge policy of the HBase and AsterixDB engines (their runs' --policy).")
  String policy;

  @Option(names = "--k", paramLabel = "K", description = "Bound k of that policy (their runs' --k).")
  Integer k;

  @Option(names = {"-o", "--engine-option"}, paramLabel = "KEY=VALUE",
      description = "A store option given to every run (its -o), repeatable.")
  Map<String, String> engineOptions = new LinkedHashMap<>();

  @Mixin ProgressOption progress = new ProgressOption();

  @Override
  public Integer call() throws IOException, InterruptedException {
    ChildLauncher launcher = ChildLauncher.ofThisJvm();
    ComparePlan plan = plan(launcher);
    List<ComparePlan.Run> runs = plan.runs(CompareCommand::takesPolicy);
    Files.createDirectories(out);
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    Machine machine = Machine.now();
    Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    long startNanos = System.nanoTime();
    List<CompareSummary.Result> results = new ArrayList<>();
    try (Progress bar = Progress.over("compare", runs.size(), " runs", 1, progress.enabled())) {
      for (ComparePlan.Run run : runs) {
        String which = f("run %d/%d: %s, workload %s", run.index(), runs.size(), run.engine(), run.workload());
        bar.message(" " + which);
        // While the bar is drawn, a line first clears the bar's line (carriage return, erase line).
        String clear = bar.silent() ? "" : "\r\033[K";
        ChildLauncher.Outcome o = launcher.run(run.args(), err,
            f("%s  [%d/%d %s %s] ", clear, run.index(), runs.size(), run.engine(), run.workload()));
        o = paperFigures(run, o);
        results.add(new CompareSummary.Result(run, o));
        bar.accept(1);
        synchronized (err) {
          err.println(clear + f("iam compare: %s (repeat %d) %s in %.1f s, %s elapsed", which, run.repeat(),
              o.failed() ? "FAILED, " + o.why() + "," : f("%,.0f ops/s", o.json().path("opsPerSecond").asDouble()),
              o.millis() / 1000.0, elapsed(startNanos)));
          err.flush();
        }
      }
    }
    CompareSummary summary = new CompareSummary(plan, results);
    CompareReport.Context context = new CompareReport.Context(commandLine(), start,
        (System.nanoTime() - startNanos) / 1_000_000, machine, Machine.loadAverageNow(), plan, launcher.shown());
    // The report first: if a chart cannot be drawn, the figures are still there.
    CompareReport.write(out, context, summary, results);
    CompareCharts.write(out, summary);
    stdout.print(new ReportDoc().table(CompareReport.summaryTable(summary)).markdown());
    stdout.println("Report: " + out.resolve(CompareReport.MARKDOWN) + " (also " + CompareReport.HTML + ", "
        + CompareReport.RESULTS + " and the charts there)");
    stdout.flush();
    long failed = results.stream().filter(r -> r.outcome().failed()).count();
    if (failed > 0) {
      err.println("iam compare: " + failed + " of " + results.size() + " runs failed; see "
          + out.resolve(CompareReport.MARKDOWN));
      err.flush();
      return 1;
    }
    return 0;
  }

  /** Checks the flags and builds the plan; a bad flag is a one-line usage error. */
  ComparePlan plan(ChildLauncher launcher) throws IOException {
    List<String> es = names("--engines", engines);
    for (String e : es) {
      if (LoadTargets.find(e).isEmpty() && !(launcher.script() && LoadTargets.isSeparateBinding(e))) {
        throw usage("--engines: " + LoadTargets.unknown(e, "engine"));
      }
    }
    List<String> ws = names("--workloads", workloads);
    List<String> known = new ArrayList<>(YcsbCommand.workloadNames());
    known.addAll(PaperTest.names());
    for (String w : ws) {
      if (!known.contains(w)) {
        throw usage("--workloads: unknown workload '" + w + "'; available: " + String.join(", ", known));
      }
    }
    String base = baseline == null ? es.get(0) : baseline.trim().toLowerCase(Locale.ROOT);
    if (!es.contains(base)) {
      throw usage("--baseline: '" + baseline + "' is not one of --engines (" + String.join(", ", es) + ")");
    }
    inRange("--records", records.count(), 1);
    inRange("--operations", operations, 1);
    long g = gOperations != null ? gOperations : Math.max(1, operations / ComparePlan.LONG_SCAN_DIVISOR);
    inRange("--g-operations", g, 1);
    inRange("--threads", threads.count(), 1);
    inRange("--repeat", repeat, 1);
    if (memtable.bytes() < 1) {
      throw usage("--memtable must be at least 1 byte");
    }
    if ((policy != null || k != null) && es.stream().noneMatch(CompareCommand::takesPolicy)) {
      throw usage((policy != null ? "--policy" : "--k") + " sets the merge policy of HBase or AsterixDB;"
          + " none of --engines (" + String.join(", ", es) + ") has one");
    }
    Dirs.newOrEmptyProblem(out).ifPresent(problem -> {
      throw usage("--out: " + problem);
    });
    ComparePlan.Budget budget = new ComparePlan.Budget(records.count(), operations, g, threads.count(),
        memtable.bytes(), cache.bytes(), policy, k, engineOptions);
    return new ComparePlan(es, ws, base, budget, repeat);
  }

  /** The defaults of the options from {@link io.iam.bench.cli.options}. */
  static final class Defaults extends OptionDefaults {
    Defaults() {
      super(Map.of("--records", DEFAULT_RECORDS, "--threads", "1", "--memtable", "2MiB", "--cache", "8MiB"));
    }
  }

  /** For a {@link PaperTest}, its {@code iam load} JSON read into a YCSB run's figures. */
  private static ChildLauncher.Outcome paperFigures(ComparePlan.Run run, ChildLauncher.Outcome o) {
    return PaperTest.named(run.workload())
        .filter(t -> o.json() != null)
        .map(t -> new ChildLauncher.Outcome(o.exitCode(), o.millis(), t.figures(o.json()), o.lastStderrLine()))
        .orElse(o);
  }

  /** The names of a list flag, trimmed and lower-cased; none empty, none twice. */
  private List<String> names(String flag, List<String> given) {
    List<String> names = new ArrayList<>();
    for (String g : given) {
      String name = g.trim().toLowerCase(Locale.ROOT);
      if (name.isEmpty()) {
        throw usage(flag + ": an empty name in '" + String.join(",", given) + "'");
      }
      if (names.contains(name)) {
        throw usage(flag + ": '" + name + "' is given twice");
      }
      names.add(name);
    }
    return names;
  }

  /** Whether the engine has a merge policy of its own to set with --policy and --k. */
  static boolean takesPolicy(String engine) {
    return !LoadTargets.isBuiltIn(engine);
  }

  /** The command line as given, each argument quoted for a shell where it needs it. */
  private String commandLine() {
    List<String> words = new ArrayList<>(List.of("iam"));
    for (String a : spec.commandLine().getParseResult().originalArgs()) {
      words.add(a.matches("[A-Za-z0-9_./=,:@%+-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
    }
    return String.join(" ", words);
  }

  private static String elapsed(long startNanos) {
    long s = (System.nanoTime() - startNanos) / 1_000_000_000;
    return f("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }

  private void inRange(String option, long value, long min) {
    if (value < min || value > Integer.MAX_VALUE) {
      throw usage(option + " " + value + " is out of range: allowed " + min + " to " + Integer.MAX_VALUE);
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
