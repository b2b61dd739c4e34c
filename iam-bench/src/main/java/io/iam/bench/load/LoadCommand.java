package io.iam.bench.load;

import io.iam.bench.cli.options.BackgroundThreadsOption;
import io.iam.bench.cli.options.CacheOption;
import io.iam.bench.cli.options.JsonOption;
import io.iam.bench.cli.options.LevelSizeOptions;
import io.iam.bench.cli.options.MemtableOption;
import io.iam.bench.cli.options.OptionDefaults;
import io.iam.bench.cli.options.ProgressOption;
import io.iam.bench.cli.options.RecordsOption;
import io.iam.bench.cli.options.SeedOption;
import io.iam.bench.cli.options.ValueSizeOption;
import io.iam.bench.util.Dirs;
import io.iam.bench.util.Jvm;
import io.iam.bench.util.RunDir;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code iam load}: a YCSB-style load on a store, optionally the same load on a peer ({@code --vs
 * rocksdb}) afterwards in the same invocation.
 */
@Command(
    name = "load",
    defaultValueProvider = LoadCommand.Defaults.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Loads a store with YCSB-style records (keys 'user' + FNV-hashed record number, incompressible"
          + " values drawn from --seed) from --writers client threads, waits for its background compactions,"
          + " and reports throughput, put latency, write amplification per level (flushes + compactions over"
          + " user bytes, WAL excluded) and disk size.",
      "Then, on the same store, optional phases in this order: --overwrites (puts of loaded keys, then"
          + " a settle; reports space amplification, disk bytes over live key plus value bytes, and write"
          + " amplification over the whole run), --reads (point reads of loaded keys, YCSB workload C"
          + " style; a miss fails the command) and --scans (range scans from loaded keys). The phases draw"
          + " their keys from --seed.",
      "With --vs, runs the same load and phases with the same budgets on each listed store afterwards and"
          + " prints the ratios (--tree / each --vs store). A full garbage collection before each --vs store"
          + " keeps it from paying for the heap the store before it left.",
      ""
    })
public final class LoadCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--tree", paramLabel = "NAME", required = true, completionCandidates = TreeNames.class,
      description = "Store to load: ${COMPLETION-CANDIDATES}.")
  String tree;

  @Mixin RecordsOption records = new RecordsOption();

  @Mixin ValueSizeOption valueSize = new ValueSizeOption();

  @Mixin MemtableOption memtable = new MemtableOption();

  @Mixin CacheOption cache = new CacheOption();

  @Mixin LevelSizeOptions levels = new LevelSizeOptions();

  @Option(names = "--bloom-bits", paramLabel = "N", defaultValue = "14",
      description = "Bloom filter bits per key. Default: ${DEFAULT-VALUE}.")
  int bloomBits;

  @Mixin BackgroundThreadsOption threads = new BackgroundThreadsOption();

  @Option(names = "--writers", paramLabel = "N", defaultValue = "1",
      description = "Client threads that put the records at once into the one store: writer w puts records w,"
          + " w + N, w + 2N, ..., with values of its own drawn from --seed. Throughput is over the wall time of"
          + " all of them; the latencies of all are merged. The phases after the load run from one thread."
          + " Default: ${DEFAULT-VALUE}.")
  int writers;

  @Option(names = "--order", paramLabel = "ORDER", defaultValue = "hash", converter = Order.class,
      description = "Key insert order: hash (YCSB's hashed inserts), sequential (keys arrive sorted) or random"
          + " (each put a uniform draw of a record, with repeats that overwrite: the IAM paper's random load)."
          + " Default: ${DEFAULT-VALUE}.")
  KeyOrder order;

  @Mixin SeedOption seed = new SeedOption();

  @Option(names = "--overwrites", paramLabel = "N", defaultValue = "0",
      description = "After the load, put N more records: loaded keys drawn uniformly at random, fresh values"
          + " of the same size; then settle and report space amplification (disk bytes / live bytes) and"
          + " write amplification over the whole run. Default: ${DEFAULT-VALUE}.")
  long overwrites;

  @Option(names = "--reads", paramLabel = "N", defaultValue = "0",
      description = "Then N point reads of loaded keys, timed one by one; every read must find a value,"
          + " a miss fails the command. Default: ${DEFAULT-VALUE}.")
  long reads;

  @Option(names = "--read-distribution", paramLabel = "DIST", defaultValue = "zipfian",
      converter = Distribution.class,
      description = "Which loaded keys --reads read and --scans start at: zipfian (YCSB's workload C: constant"
          + " 0.99, hot keys scattered as by YCSB's ScrambledZipfianGenerator), uniform, or first (scans"
          + " only: from the first key, so --scan-length N with N at least --records reads the whole"
          + " store, the IAM paper's sequential read). Default: ${DEFAULT-VALUE}.")
  KeyDistribution readDistribution;

  @Option(names = "--scans", paramLabel = "N", defaultValue = "0",
      description = "Then N range scans, each from a loaded key reading --scan-length entries (fewer at the"
          + " end of the keys). Default: ${DEFAULT-VALUE}.")
  long scans;

  @Option(names = "--scan-length", paramLabel = "L", defaultValue = "" + Phases.DEFAULT_SCAN_LENGTH,
      description = "Entries each scan reads. Default: ${DEFAULT-VALUE}.")
  int scanLength;

  @Option(names = "--sync",
      description = "Sync the write-ahead log on every put. Default: WAL on, not synced.")
  boolean sync;

  @Option(names = "--settle-timeout", paramLabel = "SECONDS", defaultValue = "600",
      description = "How long to wait for background compactions after the load. Default: ${DEFAULT-VALUE}.")
  long settleTimeoutSeconds;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Directory for the stores' data (one subdirectory per store), kept afterwards."
          + " Default: a new temporary directory, deleted afterwards unless --keep.")
  Path dir;

  @Option(names = "--keep", description = "Keep the temporary data directory.")
  boolean keep;

  @Option(names = "--vs", paramLabel = "NAME", split = ",", completionCandidates = TreeNames.class,
      description = "Afterwards run the same load on each of these stores, comma-separated"
          + " (${COMPLETION-CANDIDATES}), and print the ratios. Default: none.")
  List<String> vs = new ArrayList<>();

  @Option(names = {"-o", "--engine-option"}, paramLabel = "KEY=VALUE",
      description = "An option of IAM's embedded engine (docs/engine.md), set on the leveled, iam, lsa,"
          + " lsm-merge, lsbm, minmax and stack stores on top of the budgets above, e.g. -o mixed-level=3; repeatable. RocksDB"
          + " ignores them.")
  Map<String, String> engineOptions = new java.util.LinkedHashMap<>();

  @Mixin JsonOption json = new JsonOption();

  @Mixin ProgressOption progress = new ProgressOption();

  @Option(names = "--chart", paramLabel = "FILE",
      description = "Also draw write amplification per store, stacked by level, as a PNG in FILE.")
  Path chart;

  @Override
  public Integer call() throws IOException {
    LoadTarget.Factory ours = target(tree);
    List<LoadTarget.Factory> peers = new ArrayList<>();
    for (String name : vs) {
      peers.add(target(name));
    }
    LoadConfig config = config();
    Phases phases = phases();
    if (records.count() < 1) {
      throw usage("--records " + records.count() + " is out of range: allowed 1 or more");
    }
    if (valueSize.bytes() < 1 || valueSize.bytes() > Integer.MAX_VALUE - 16) {
      throw usage("--value-size " + valueSize.bytes() + " is out of range: allowed 1 B to 2 GiB");
    }
    if (writers < 1) {
      throw usage("--writers " + writers + " is out of range: allowed 1 or more");
    }

    PrintWriter out = spec.commandLine().getOut();
    try (RunDir runDir = RunDir.of(dir, "load", keep, spec.commandLine().getErr(), "iam load")) {
      return run(runDir, ours, peers, config, phases, out);
    }
  }

  private int run(RunDir runDir, LoadTarget.Factory ours, List<LoadTarget.Factory> peers, LoadConfig config,
      Phases phases, PrintWriter out) throws IOException {
    Path base = runDir.path();
    Path oursDir = base.resolve(tree);
    List<Path> peerDirs = new ArrayList<>();
    for (String name : vs) {
      peerDirs.add(base.resolve("vs-" + name));
    }
    if (!runDir.temporary()) {
      prepare(oursDir);
      for (Path peerDir : peerDirs) {
        prepare(peerDir);
      }
    }
    Files.createDirectories(oursDir);
    RunResult ourResult = runStore(ours, oursDir, config, phases);
    LoadReport.print(out, ourResult);
    out.flush();
    List<RunResult> peerResults = new ArrayList<>();
    for (int i = 0; i < peers.size(); i++) {
      Files.createDirectories(peerDirs.get(i));
      Jvm.releaseHeap();
      RunResult peerResult = runStore(peers.get(i), peerDirs.get(i), config.withTree(vs.get(i)), phases);
      LoadReport.print(out, peerResult);
      peerResults.add(peerResult);
      out.flush();
    }
    for (RunResult peerResult : peerResults) {
      LoadReport.printRatios(out, ourResult, peerResult);
    }
    if (chart != null) {
      List<RunResult> all = new ArrayList<>(List.of(ourResult));
      all.addAll(peerResults);
      out.println("chart: " + LoadChart.write(chart, all));
    }
    if (json.enabled()) {
      out.println(LoadJson.of(ourResult, peerResults));
    }
    out.flush();
    return 0;
  }

  /** The load and the phases on one store; a store that refuses the writers is a usage error. */
  private RunResult runStore(LoadTarget.Factory factory, Path storeDir, LoadConfig config, Phases phases)
      throws IOException {
    try {
      return LoadRunner.run(factory, storeDir, config, workload(), phases, progress.enabled());
    } catch (LoadRunner.WritersRefusedException e) {
      throw usage(e.getMessage());
    }
  }

  private LoadWorkload workload() {
    if (order == KeyOrder.RANDOM && records.count() > Integer.MAX_VALUE) {
      throw usage("--order random takes at most " + Integer.MAX_VALUE + " --records");
    }
    return new LoadWorkload(records.count(), (int) valueSize.bytes(), order, seed.value(), writers);
  }

  private Phases phases() {
    notNegative("--overwrites", overwrites);
    notNegative("--reads", reads);
    if (reads > 0 && readDistribution == KeyDistribution.FIRST) {
      throw usage("--read-distribution first applies to --scans only (a point read needs a loaded key)");
    }
    notNegative("--scans", scans);
    if (scanLength < 1) {
      throw usage("--scan-length " + scanLength + " is out of range: allowed 1 or more");
    }
    return new Phases(overwrites, reads, readDistribution, scans, scanLength);
  }

  private void notNegative(String option, long value) {
    if (value < 0) {
      throw usage(option + " " + value + " is out of range: allowed 0 or more");
    }
  }

  private LoadConfig config() {
    if (memtable.bytes() < 1) {
      throw usage("--memtable must be at least 1 byte");
    }
    if (threads.count() < 1) {
      throw usage("--threads " + threads.count() + " is out of range: allowed 1 or more");
    }
    if (bloomBits < 1) {
      throw usage("--bloom-bits " + bloomBits + " is out of range: allowed 1 or more");
    }
    if (settleTimeoutSeconds < 1) {
      throw usage("--settle-timeout " + settleTimeoutSeconds + " is out of range: allowed 1 or more");
    }
    long files = levels.fileSize(memtable.bytes());
    long base = levels.levelBase(memtable.bytes());
    if (files < 1) {
      throw usage("--file-size must be at least 1 byte");
    }
    if (base < 1) {
      throw usage("--level-base must be at least 1 byte");
    }
    return new LoadConfig(tree, memtable.bytes(), cache.bytes(), bloomBits, files, base,
        LoadConfig.DEFAULT_LEVEL_SIZE_MULTIPLIER, LoadConfig.DEFAULT_LEVEL0_COMPACTION_TRIGGER, threads.count(), sync,
        Duration.ofSeconds(settleTimeoutSeconds), engineOptions);
  }

  private LoadTarget.Factory target(String name) {
    return LoadTargets.find(name).orElseThrow(() -> usage(LoadTargets.unknown(name)));
  }

  /** A store's directory under --dir must be new or empty: loading into old data skews every figure. */
  private void prepare(Path storeDir) throws IOException {
    Dirs.newOrEmptyProblem(storeDir).ifPresent(problem -> {
      throw usage("--dir: " + problem);
    });
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The defaults of the options from {@link io.iam.bench.cli.options}. */
  static final class Defaults extends OptionDefaults {
    Defaults() {
      super(Map.of("--records", "1000000", "--value-size", "1KiB", "--memtable", "64MiB", "--cache", "256MiB",
          "--threads", "1", "--seed", "42"));
    }
  }

  /** The registered store names, for {@code ${COMPLETION-CANDIDATES}}. */
  public static final class TreeNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return LoadTargets.names().iterator();
    }
  }

  /** {@code hash} or {@code sequential}. */
  static final class Order implements ITypeConverter<KeyOrder> {
    @Override
    public KeyOrder convert(String value) {
      return converted(() -> KeyOrder.parse(value));
    }
  }

  /** {@code zipfian} or {@code uniform}. */
  static final class Distribution implements ITypeConverter<KeyDistribution> {
    @Override
    public KeyDistribution convert(String value) {
      return converted(() -> KeyDistribution.parse(value));
    }
  }

  /** What {@code parse} returns, its {@link IllegalArgumentException} as picocli's conversion error. */
  private static <T> T converted(Supplier<T> parse) {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
