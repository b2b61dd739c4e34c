package io.iam.bench.cli;

import io.iam.bench.cli.CliConverters.SizeRange;
import io.iam.bench.cli.options.JsonOption;
import io.iam.bench.cli.options.OptionDefaults;
import io.iam.bench.cli.options.ProgressOption;
import io.iam.bench.cli.options.SeedOption;
import io.iam.bench.util.Progress;
import io.iam.bench.util.SizeConverter;
import io.iam.core.option.InvalidOptionsException;
import io.iam.core.policy.MergePolicy;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.FlushStream;
import io.iam.core.sim.SimulationResult;
import io.iam.core.sim.Simulator;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code iam simulate}: one policy through the cost model, or the paper's sweep. */
@Command(
    name = "simulate",
    defaultValueProvider = SimulateCommand.Defaults.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Simulates a merge policy in the bounded-depth paper's cost model and reports write"
          + " amplification, component counts and merges.",
      "Flushes arrive one at a time; after each, the policy may merge one contiguous run of"
          + " components. --flush-random and --updates draw from --seed.",
      "With --sweep, runs the bounded-depth paper's policies for k in 3..10 plus reference"
          + " policies and writes sweep.csv, series.csv and charts to --out.",
      ""
    })
public final class SimulateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin PolicyArgs policyArgs = new PolicyArgs();

  @Option(names = "--flushes", paramLabel = "N", defaultValue = "24000",
      description = "Number of flushes to simulate. Default: ${DEFAULT-VALUE}.")
  long flushes;

  @Option(names = "--every", paramLabel = "N", defaultValue = "1000",
      description = "Record a series point every N flushes (and after the last). Default: ${DEFAULT-VALUE}.")
  long every;

  @Option(names = "--flush-size", paramLabel = "SIZE", defaultValue = "4MiB",
      converter = SizeConverter.class,
      description = "Length of every flush (memtable capacity for --updates), e.g. 4096, 64KiB, 4MiB."
          + " Default: ${DEFAULT-VALUE}.")
  long flushSize;

  @Option(names = "--flush-random", paramLabel = "MIN:MAX", converter = CliConverters.Range.class,
      description = "Draw flush lengths uniformly at random from MIN..MAX (seeded by --seed)"
          + " instead of --flush-size. Default: none.")
  SizeRange flushRandom;

  @Option(names = "--updates", paramLabel = "FRACTION",
      description = "Use the paper's update model: this fraction of writes (0 to <1) update existing"
          + " keys, chosen Zipf(0.99)-latest; flush-size / record-size records per flush. Default: none.")
  Double updates;

  @Option(names = "--record-size", paramLabel = "SIZE", defaultValue = "1KiB",
      converter = SizeConverter.class,
      description = "Record length for --updates. Default: ${DEFAULT-VALUE}.")
  long recordSize;

  @Mixin SeedOption seed = new SeedOption();

  @Option(names = "--accounting", paramLabel = "MODE", defaultValue = "model",
      converter = CliConverters.AccountingName.class,
      completionCandidates = CliConverters.AccountingNames.class,
      description = "How a flush that is merged at once counts: 'model' (written once, the paper's"
          + " cost model) or 'flush-then-merge' (written, then merged, as HBase and AsterixDB do)."
          + " Default: ${DEFAULT-VALUE}.")
  Accounting accounting;

  @Mixin JsonOption json = new JsonOption();

  @Mixin ProgressOption progress = new ProgressOption();

  @Option(names = "--sweep",
      description = "Run the paper's sweep instead of one policy (needs --out).")
  boolean sweep;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Directory the sweep writes to. Default: none.")
  Path out;

  @Option(names = "--threads", paramLabel = "N",
      description = "Threads of the sweep. Default: available processors (${DEFAULT-VALUE}).")
  int threads = Runtime.getRuntime().availableProcessors();

  @Option(names = "--sweep-max-flushes", paramLabel = "N",
      description = "Cap every sweep run at N flushes, for quick looks and tests. Default: no cap"
          + " (100,000 flushes, 1,000,000 for k = 10).")
  Long sweepMaxFlushes;

  /** Options that only make sense for one policy, and those only for --sweep. */
  private static final List<String> SINGLE_ONLY = List.of(
      "--policy", "--k", "--option", "--flushes", "--every", "--flush-random", "--updates",
      "--record-size", "--seed");
  private static final List<String> SWEEP_ONLY = List.of("--out", "--threads", "--sweep-max-flushes");

  @Override
  public Integer call() throws Exception {
    checkCombination();
    return sweep ? runSweep() : runOne();
  }

  private int runOne() {
    if (flushes < 1) {
      throw usage("--flushes " + flushes + " is out of range: allowed 1 or more");
    }
    if (every < 1) {
      throw usage("--every " + every + " is out of range: allowed 1 or more");
    }
    MergePolicy p;
    FlushStream stream;
    try {
      p = policyArgs.create();
      stream = new StreamChoice(flushSize, flushRandom, updates, recordSize, seed.value()).create();
    } catch (InvalidOptionsException e) {
      throw usage(e.getMessage());
    }
    SimulationResult result;
    try (Progress bar = Progress.flushes(p.name(), flushes, progress.enabled())) {
      result = new Simulator(p, stream, accounting, every, bar).run(flushes);
    }
    PrintWriter stdout = spec.commandLine().getOut();
    SimulationReport.print(stdout, result);
    if (json.enabled()) {
      stdout.println(ResultJson.simulation(result));
    }
    stdout.flush();
    return 0;
  }

  private int runSweep() throws Exception {
    if (out == null) {
      throw usage("--sweep needs --out DIR");
    }
    if (threads < 1) {
      throw usage("--threads " + threads + " is out of range: allowed 1 or more");
    }
    if (flushSize < 1) {
      throw usage("--flush-size must be at least 1 byte");
    }
    if (sweepMaxFlushes != null && sweepMaxFlushes < 1) {
      throw usage("--sweep-max-flushes " + sweepMaxFlushes + " is out of range: allowed 1 or more");
    }
    long cap = sweepMaxFlushes == null ? Long.MAX_VALUE : sweepMaxFlushes;
    Sweep.Result r = new Sweep(flushSize, accounting, threads, cap, progress.enabled()).run(out);
    PrintWriter stdout = spec.commandLine().getOut();
    SweepReport.print(stdout, r, threads, CliConverters.name(accounting));
    if (json.enabled()) {
      stdout.println(ResultJson.sweep(out, r.outcomes().size(), r.elapsedMillis(), r.files()));
    }
    stdout.flush();
    return 0;
  }

  private void checkCombination() {
    var parsed = spec.commandLine().getParseResult();
    List<String> wrong = new ArrayList<>();
    for (String name : sweep ? SINGLE_ONLY : SWEEP_ONLY) {
      if (parsed.hasMatchedOption(name)) {
        wrong.add(name);
      }
    }
    if (!wrong.isEmpty()) {
      String verb = wrong.size() == 1 ? " applies" : " apply";
      throw usage(String.join(", ", wrong) + (sweep ? " cannot be combined with --sweep" : verb + " only to --sweep"));
    }
  }

  /** The defaults of the options from {@link io.iam.bench.cli.options}. */
  static final class Defaults extends OptionDefaults {
    Defaults() {
      super(Map.of("--seed", "42"));
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
