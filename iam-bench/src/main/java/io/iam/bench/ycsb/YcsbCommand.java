package io.iam.bench.ycsb;

import io.iam.bench.cli.options.CacheOption;
import io.iam.bench.cli.options.ClientThreadsOption;
import io.iam.bench.cli.options.JsonOption;
import io.iam.bench.cli.options.MemtableOption;
import io.iam.bench.cli.options.OptionDefaults;
import io.iam.bench.cli.options.ProgressOption;
import io.iam.bench.cli.options.RecordsOption;
import io.iam.bench.load.LoadCommand;
import io.iam.bench.load.LoadConfig;
import io.iam.bench.load.LoadTargets;
import io.iam.bench.util.Dirs;
import io.iam.bench.util.RunDir;
import io.iam.core.policy.PolicyOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
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
import site.ycsb.DBException;
import site.ycsb.WorkloadException;

/** {@code iam ycsb}: a YCSB core workload on one store, YCSB's own workload code driving it. */
@Command(
    name = "ycsb",
    defaultValueProvider = YcsbCommand.Defaults.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Runs a YCSB workload on a store: YCSB's load phase (--records inserts, YCSB's recordcount, of 1 KiB"
          + " records, 10 fields of 100 B), then its transaction phase (--operations operations of the"
          + " workload's mix), both by YCSB 0.17.0's CoreWorkload from --threads client threads sharing the"
          + " store. --memtable sets the store's memtable; its other budgets are iam load's defaults for it.",
      "Workloads a-f are YCSB's own files; g is the IAM paper's (section 6.5): 95%% scans of 1-10,000"
          + " records, 5%% inserts; 'load' runs the load phase alone.",
      "Reports throughput, latency per operation type (p50, p95, p99, p99.9, max), write amplification"
          + " (flushes + compactions over user bytes of both phases, after a settle) and disk size. Exits 1 if"
          + " any operation failed.",
      ""
    })
public final class YcsbCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--engine", paramLabel = "NAME", required = true, completionCandidates = LoadCommand.TreeNames.class,
      description = "Store: ${COMPLETION-CANDIDATES}.")
  String engine;

  @Option(names = "--workload", paramLabel = "W", required = true, completionCandidates = WorkloadNames.class,
      description = "Workload: ${COMPLETION-CANDIDATES}.")
  String workload;

  @Mixin RecordsOption records = new RecordsOption();

  @Option(names = "--operations", paramLabel = "M", defaultValue = "100000",
      description = "Operations of the transaction phase (operationcount). Default: ${DEFAULT-VALUE}.")
  long operations;

  @Mixin ClientThreadsOption threads = new ClientThreadsOption();

  @Mixin MemtableOption memtable = new MemtableOption();

  @Mixin CacheOption cache = new CacheOption();

  @Option(names = "--policy", paramLabel = "NAME",
      description = "The merge policy of an HBase or AsterixDB store (`iam policies` lists them); the"
          + " engine option '" + LoadConfig.POLICY + "'. The embedded trees are chosen by --engine instead.")
  String policy;

  @Option(names = "--k", paramLabel = "K",
      description = "The policy's bound k on components (its option 'max-components').")
  Integer k;

  @Option(names = {"-o", "--engine-option"}, paramLabel = "KEY=VALUE",
      description = "An option of the store, repeatable: the embedded engine's store options"
          + " (docs/engine.md), or a policy option for HBase and AsterixDB (docs/policies.md).")
  Map<String, String> engineOptions = new LinkedHashMap<>();

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Directory of the store, new or empty, kept afterwards. Default: a new temporary"
          + " directory, deleted afterwards unless --keep.")
  Path dir;

  @Option(names = "--keep", description = "Keep the temporary data directory.")
  boolean keep;

  @Mixin JsonOption json = new JsonOption();

  @Mixin ProgressOption progress = new ProgressOption();

  @Override
  public Integer call() throws IOException, DBException, WorkloadException {
    if (LoadTargets.find(engine).isEmpty()) {
      throw usage("--engine: " + LoadTargets.unknown(engine, "engine"));
    }
    String w = workload.trim().toLowerCase(Locale.ROOT);
    if (!workloadNames().contains(w)) {
      throw usage("--workload: unknown workload '" + workload + "'; available: " + String.join(", ", workloadNames()));
    }
    inRange("--records", records.count(), 1);
    inRange("--operations", operations, w.equals(YcsbSpec.LOAD_ONLY) ? 0 : 1);
    inRange("--threads", threads.count(), 1);
    if (memtable.bytes() < 1) {
      throw usage("--memtable must be at least 1 byte");
    }
    if (dir != null) {
      Dirs.newOrEmptyProblem(dir).ifPresent(problem -> {
        throw usage("--dir: " + problem);
      });
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (RunDir runDir = RunDir.of(dir, "ycsb", keep, err, "iam ycsb")) {
      YcsbResult r = YcsbRunner.run(new YcsbSpec(engine, w, records.count(), operations, threads.count(),
          runDir.path(), memtable.bytes(), cache.bytes(), options()), progress.enabled());
      YcsbReport.print(out, r);
      if (json.enabled()) {
        out.println(YcsbReport.json(r));
      }
      out.flush();
      if (r.errors() > 0) {
        err.println("iam ycsb: " + r.errors() + " operations failed; the first: " + r.firstError());
        err.flush();
        return 1;
      }
      return 0;
    }
  }

  /** {@code -o} options, with {@code --policy} and {@code --k} added under their option keys. */
  private Map<String, String> options() {
    Map<String, String> options = new LinkedHashMap<>(engineOptions);
    if ((policy != null || k != null) && LoadTargets.isBuiltIn(engine)) {
      throw usage((policy != null ? "--policy" : "--k") + " sets the merge policy of an HBase or AsterixDB store;"
          + " '" + engine + "' has none (the embedded trees are chosen with --engine)");
    }
    if (policy != null) {
      putOnce(options, LoadConfig.POLICY, policy, "--policy");
    }
    if (k != null) {
      putOnce(options, PolicyOptions.MAX_COMPONENTS.key(), Integer.toString(k), "--k");
    }
    return options;
  }

  private void putOnce(Map<String, String> options, String key, String value, String flag) {
    if (options.containsKey(key)) {
      throw usage(flag + " and -o " + key + "=... both set '" + key + "'; give one");
    }
    options.put(key, value);
  }

  private void inRange(String option, long value, long min) {
    if (value < min || value > Integer.MAX_VALUE) {
      throw usage(option + " " + value + " is out of range: allowed " + min + " to " + Integer.MAX_VALUE);
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The defaults of the options from {@link io.iam.bench.cli.options}. */
  static final class Defaults extends OptionDefaults {
    Defaults() {
      super(Map.of("--records", "100000", "--threads", "1", "--memtable", StoreDb.DEFAULT_MEMTABLE,
          "--cache", StoreDb.DEFAULT_CACHE));
    }
  }

  /** The workload names {@code --workload} takes: {@code a} … {@code g}, then {@code load}. */
  public static List<String> workloadNames() {
    List<String> names = new ArrayList<>(Workloads.NAMES);
    names.add(YcsbSpec.LOAD_ONLY);
    return names;
  }

  /** The workload names, for {@code ${COMPLETION-CANDIDATES}}. */
  static final class WorkloadNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return workloadNames().iterator();
    }
  }
}
