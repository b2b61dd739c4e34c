package io.iam.bench.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.bench.cli.options.JsonOption;
import io.iam.bench.cli.options.OptionDefaults;
import io.iam.bench.cli.options.SeedOption;
import io.iam.bench.util.Json;
import io.iam.core.tree.iam.Mode;
import io.iam.core.tree.iam.TreeSimResult;
import io.iam.core.tree.iam.TreeSimulator;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code iam simulate-tree}: the pure LSA/IAM tree simulator (metadata only), per-level write amplification. */
@Command(
    name = "simulate-tree",
    defaultValueProvider = SimulateTreeCommand.Defaults.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Simulates an LSA-tree, IAM-tree or merging LSM-tree of nodes (metadata only, no files) and"
          + " reports write amplification per level.",
      "Each flush is one memtable of --node-records uniformly random keys, drawn from --seed; a record counts"
          + " as 1 byte.",
      ""
    })
public final class SimulateTreeCommand implements Callable<Integer> {

  /** Bytes per record: the simulator counts records, so a record is one byte. */
  private static final long RECORD_BYTES = 1;

  @Spec CommandSpec spec;

  @Option(names = "--mode", paramLabel = "MODE", defaultValue = "iam",
      description = "Flush behaviour: lsa (append everywhere), iam (append above level m, mixed at m,"
          + " merge below) or lsm-merge (merge everywhere). Default: ${DEFAULT-VALUE}.")
  String mode;

  @Option(names = "--m", paramLabel = "N",
      description = "IAM's mixed level m (1 or more); required with --k for --mode iam. Default: none.")
  Integer m;

  @Option(names = "--k", paramLabel = "N",
      description = "IAM's sequence cap k at level m (1 or more); required with --m for --mode iam."
          + " Default: none.")
  Integer k;

  @Option(names = "--t", paramLabel = "N", defaultValue = "10",
      description = "Fan-out t (2 or more). Default: ${DEFAULT-VALUE}.")
  int t;

  @Option(names = "--node-records", paramLabel = "N", defaultValue = "100",
      description = "Node capacity C_t (and memtable size) in records (10 or more). Default: ${DEFAULT-VALUE}.")
  long nodeRecords;

  @Option(names = "--flushes", paramLabel = "N", defaultValue = "1000",
      description = "Number of memtable flushes to simulate. Default: ${DEFAULT-VALUE}.")
  long flushes;

  @Mixin SeedOption seed = new SeedOption();

  @Mixin JsonOption json = new JsonOption();

  @Override
  public Integer call() {
    if (t < 2) {
      throw usage("--t " + t + " is out of range: allowed 2 or more");
    }
    if (nodeRecords < 10 || nodeRecords > Integer.MAX_VALUE) {
      throw usage("--node-records " + nodeRecords + " is out of range: allowed 10 to " + Integer.MAX_VALUE);
    }
    if (flushes < 1) {
      throw usage("--flushes " + flushes + " is out of range: allowed 1 or more");
    }
    Mode chosen = mode();
    TreeSimulator sim;
    try {
      sim = new TreeSimulator(t, nodeRecords * RECORD_BYTES, RECORD_BYTES, chosen, seed.value());
    } catch (IllegalArgumentException e) {
      throw usage("--t/--node-records: " + e.getMessage());
    }
    TreeSimResult r = sim.run(flushes);
    PrintWriter out = spec.commandLine().getOut();
    print(out, r);
    if (json.enabled()) {
      out.println(json(r));
    }
    out.flush();
    return 0;
  }

  private Mode mode() {
    String name = mode.toLowerCase(Locale.ROOT);
    switch (name) {
      case "iam" -> {
        if (m == null || k == null) {
          throw usage((m == null && k == null ? "--m and --k are" : (m == null ? "--m is" : "--k is"))
              + " required with --mode iam");
        }
        try {
          return Mode.iam(m, k);
        } catch (IllegalArgumentException e) {
          throw usage((m < 1 ? "--m " + m : "--k " + k) + " is out of range: " + e.getMessage());
        }
      }
      case "lsa", "lsm-merge" -> {
        if (m != null || k != null) {
          throw usage((m != null ? "--m" : "--k") + " applies only to --mode iam");
        }
        return name.equals("lsa") ? Mode.lsa() : Mode.lsmMerge();
      }
      default -> throw usage("--mode '" + mode + "' is not one of lsa, iam, lsm-merge");
    }
  }

  private String modeName() {
    return mode.toLowerCase(Locale.ROOT);
  }

  private void print(PrintWriter out, TreeSimResult r) {
    out.println("mode " + modeName()
        + (m != null ? " m=" + m + " k=" + k : "")
        + " | t " + t + " | node " + nodeRecords + " records"
        + " | " + flushes + " flushes | seed " + seed.value());
    out.println();
    out.printf(Locale.ROOT, "%6s %8s %14s %10s %10s %9s%n",
        "level", "nodes", "bytes-written", "write-amp", "mean-seqs", "max-seqs");
    for (int level = 1; level <= r.depth(); level++) {
      out.printf(Locale.ROOT, "%6d %8d %14d %10.4f %10.3f %9d%n",
          level, r.nodes()[level - 1], r.bytesWritten()[level - 1], r.writeAmplification(level),
          r.meanSequences()[level - 1], r.maxSequences()[level - 1]);
    }
    out.println();
    row(out, "write amplification", String.format(Locale.ROOT, "%.4f", r.totalWriteAmplification()));
    row(out, "moves", Long.toString(r.moves()));
    row(out, "splits", Long.toString(r.splits()));
    row(out, "combines", Long.toString(r.combines()));
  }

  private static void row(PrintWriter out, String label, String value) {
    out.printf(Locale.ROOT, "%-20s %s%n", label, value);
  }

  private String json(TreeSimResult r) {
    ObjectNode o = Json.object();
    o.put("mode", modeName());
    if (m != null) {
      o.put("m", m);
      o.put("k", k);
    } else {
      o.putNull("m");
      o.putNull("k");
    }
    o.put("t", t);
    o.put("nodeRecords", nodeRecords);
    o.put("flushes", flushes);
    o.put("seed", seed.value());
    Json.putFinite(o, "writeAmplification", r.totalWriteAmplification());
    Json.array(o, "levels", IntStream.rangeClosed(1, r.depth()).boxed().toList(), (l, level) -> {
      l.put("level", level);
      l.put("nodes", r.nodes()[level - 1]);
      l.put("bytesWritten", r.bytesWritten()[level - 1]);
      Json.putFinite(l, "writeAmplification", r.writeAmplification(level));
      Json.putFinite(l, "meanSequences", r.meanSequences()[level - 1]);
      l.put("maxSequences", r.maxSequences()[level - 1]);
    });
    o.put("moves", r.moves());
    o.put("splits", r.splits());
    o.put("combines", r.combines());
    return Json.line(o);
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The defaults of the options from {@link io.iam.bench.cli.options}. */
  static final class Defaults extends OptionDefaults {
    Defaults() {
      super(Map.of("--seed", "42"));
    }
  }
}
