package io.iam.bench.cli;

import io.iam.bench.host.HostExperiment;
import io.iam.bench.host.HostExperimentProvider;
import io.iam.bench.host.HostRun;
import io.iam.bench.util.Json;
import io.iam.bench.util.Progress;
import io.iam.bench.util.Sizes;
import io.iam.core.option.InvalidOptionsException;
import io.iam.core.policy.MergePolicy;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.ReplayedFlushes;
import io.iam.core.sim.SimulationResult;
import io.iam.core.sim.Simulator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code iam host-experiment}: the bounded-depth paper's experiment in a real host. The host makes
 * {@code --flushes} flushes of equal size under the policy and counts what it wrote; the simulator
 * then replays the host's own flush sizes under the same policy (a flushed component is written,
 * then merged, as hosts do), and both are printed side by side.
 */
@Command(
    name = "host-experiment",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Runs a merge policy in a real host (the embedded AsterixDB) for N equal flushes, and prints"
          + " its write amplification, component counts, merges and merge time beside the"
          + " simulator's for the same flush sizes.",
      ""
    })
public final class HostExperimentCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--host", paramLabel = "NAME", required = true,
      description = "The host: one of the hosts on the class path (asterixdb).")
  String host;

  @Mixin PolicyArgs policyArgs = new PolicyArgs();

  @Option(names = "--flushes", paramLabel = "N", defaultValue = "1000",
      description = "Flushes to make. Default: ${DEFAULT-VALUE}.")
  int flushes;

  @Option(names = "--records-per-flush", paramLabel = "N", defaultValue = "10000",
      description = "New records written before each flush. Default: ${DEFAULT-VALUE}.")
  int recordsPerFlush;

  @Option(names = "--value-size", paramLabel = "BYTES", defaultValue = "100",
      description = "Bytes of each record's value. Default: ${DEFAULT-VALUE}.")
  int valueBytes;

  @Option(names = "--json", description = "Print the result as one JSON object on the last line.")
  boolean json;

  @Option(names = "--no-progress", description = "Do not draw a progress bar on stderr.")
  boolean noProgress;

  @Override
  public Integer call() throws Exception {
    Map<String, HostExperiment> hosts = HostExperimentProvider.all();
    HostExperiment experiment = hosts.get(host);
    if (experiment == null) {
      throw usage("--host " + host + " is not one of " + hosts.keySet()
          + (hosts.isEmpty() ? " (run through ./iam, which puts the host modules on the class path)" : ""));
    }
    inRange("--flushes", flushes, 1);
    inRange("--records-per-flush", recordsPerFlush, 1);
    inRange("--value-size", valueBytes, 1);
    MergePolicy p;
    try {
      p = policyArgs.create();
    } catch (InvalidOptionsException e) {
      throw usage(e.getMessage());
    }
    Map<String, String> policyOptions = new LinkedHashMap<>(p.options().asStrings());
    HostRun run;
    try (Progress bar = Progress.over(host + " " + p.name(), flushes, "flushes", 0, !noProgress)) {
      run = experiment.run(new HostExperiment.Spec(policyArgs.policy, policyOptions, flushes, recordsPerFlush, valueBytes), bar::stepTo);
    }
    SimulationResult sim = new Simulator(policyArgs.create(),
        new ReplayedFlushes(host, run.flushLengths(), null), Accounting.FLUSH_THEN_MERGE, flushes, steps -> {})
        .run(run.flushLengths().size());
    PrintWriter out = spec.commandLine().getOut();
    print(out, run, sim);
    if (json) {
      out.println(json(run, sim));
    }
    out.flush();
    return 0;
  }

  private static void print(PrintWriter out, HostRun run, SimulationResult sim) {
    out.println(run.host() + ": " + run.describe() + ", " + run.flushLengths().size() + " flushes of "
        + Sizes.human(run.bytesFlushed() / Math.max(1, run.flushLengths().size())) + " on average, in "
        + String.format(Locale.ROOT, "%.1f s", run.elapsedMillis() / 1000.0));
    out.printf(Locale.ROOT, "%-22s %14s %14s %10s%n", "", "measured", "simulated", "difference");
    row(out, "write amplification", run.writeAmplification(), sim.writeAmplification(), true);
    row(out, "average components", run.averageComponents(), sim.averageComponents(), false);
    row(out, "max components", run.maxComponents(), sim.maxComponents(), false);
    row(out, "merges", run.mergeLengths().size(), sim.merges(), false);
    out.printf(Locale.ROOT, "%-22s %14s%n", "merge time", String.format(Locale.ROOT, "%.1f s", run.mergeMillis() / 1000.0));
  }

  private static void row(PrintWriter out, String label, double measured, double simulated, boolean relative) {
    String diff = relative
        ? String.format(Locale.ROOT, "%+.1f%%", simulated == 0 ? 0 : 100 * (measured - simulated) / simulated)
        : String.format(Locale.ROOT, "%+.3f", measured - simulated);
    out.printf(Locale.ROOT, "%-22s %14.3f %14.3f %10s%n", label, measured, simulated, diff);
  }

  static String json(HostRun run, SimulationResult sim) {
    ObjectNode o = Json.object();
    o.put("host", run.host());
    o.put("policy", sim.policy());
    ObjectNode options = o.putObject("options");
    sim.options().forEach(options::put);
    o.put("describe", run.describe());
    o.put("flushes", run.flushLengths().size());
    o.put("bytesFlushed", run.bytesFlushed());
    o.put("bytesMerged", run.bytesMerged());
    Json.putFinite(o, "writeAmplification", run.writeAmplification());
    Json.putFinite(o, "averageComponents", run.averageComponents());
    o.put("maxComponents", run.maxComponents());
    o.put("merges", run.mergeLengths().size());
    o.put("mergeMillis", run.mergeMillis());
    o.put("elapsedMillis", run.elapsedMillis());
    ObjectNode s = o.putObject("simulated");
    Json.putFinite(s, "writeAmplification", sim.writeAmplification());
    Json.putFinite(s, "averageComponents", sim.averageComponents());
    s.put("maxComponents", sim.maxComponents());
    s.put("merges", sim.merges());
    s.put("accounting", CliConverters.name(sim.accounting()));
    return Json.line(o);
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
