package io.iam.bench.projections;

import io.iam.bench.cli.options.BackgroundThreadsOption;
import io.iam.bench.cli.options.CacheOption;
import io.iam.bench.cli.options.JsonOption;
import io.iam.bench.cli.options.LevelSizeOptions;
import io.iam.bench.cli.options.MemtableOption;
import io.iam.bench.cli.options.OptionDefaults;
import io.iam.bench.cli.options.ProgressOption;
import io.iam.bench.cli.options.SeedOption;
import io.iam.bench.load.LoadCommand;
import io.iam.bench.load.LoadConfig;
import io.iam.bench.load.LoadTarget;
import io.iam.bench.load.LoadTargets;
import io.iam.bench.util.Dirs;
import io.iam.bench.util.Jvm;
import io.iam.bench.util.RunDir;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code iam projections}: the Min-Max paper's benchmark (§5) on any registered stores. See {@link
 * ProjectionsBench} for the run, {@link TaxiTrips} for the stream, {@link RangeQueries} for the
 * queries, and docs/minmax.md ("Benchmark: three projections").
 */
@Command(
    name = "projections",
    defaultValueProvider = ProjectionsCommand.Defaults.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "The Min-Max paper's benchmark (Ton That et al., SSDBM 2021, section 5): a generated taxi-like trip stream"
          + " (seeded by --seed; trips arrive in ID order, trip_distance and total_amount follow a stable"
          + " distribution with drift, so they arrive nearly sorted) loaded as three projections, each into a"
          + " store of its own: P1 keyed on the ID (29 columns), P2 on trip_distance (4 columns), P3 on"
          + " total_amount (5 columns).",
      "For each store and projection it reports the load time, the bytes written by flushes and merges, the"
          + " bytes merges read and the number of merges (from the store's own counters), then runs the range"
          + " queries of the paper's Table 4 at its selectivities, at places drawn from --seed, and counts the"
          + " data blocks each reads from table files (block-cache misses). Every query must return the records"
          + " the stream holds in its range, or the command fails.",
      ""
    })
public final class ProjectionsCommand implements Callable<Integer> {

  /** The stores measured when {@code --stores} is not given. */
  static final String DEFAULT_STORES = "leveled,rocksdb,rocksdb-universal";

  @Spec CommandSpec spec;

  @Option(names = "--stores", paramLabel = "NAMES", split = ",", defaultValue = DEFAULT_STORES,
      completionCandidates = LoadCommand.TreeNames.class,
      description = "Stores to measure, comma-separated, each loaded with all three projections: "
          + "${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
  List<String> stores = new ArrayList<>();

  @Option(names = "--records", paramLabel = "N", defaultValue = "100000",
      description = "Trips per projection. Default: ${DEFAULT-VALUE}.")
  int records;

  @Option(names = "--disorder", paramLabel = "W", defaultValue = "" + TaxiTrips.DEFAULT_DISORDER,
      description = "How far, in records, a trip's distance or amount may put it from its sorted place: larger"
          + " is less sorted. Default: ${DEFAULT-VALUE}.")
  int disorder;

  @Option(names = "--queries", paramLabel = "N", defaultValue = "10",
      description = "Range queries per Table 4 row (Q1 to Q5) and projection. Default: ${DEFAULT-VALUE}.")
  int queries;

  @Mixin SeedOption seed = new SeedOption();

  @Mixin MemtableOption memtable = new MemtableOption();

  @Mixin CacheOption cache = new CacheOption();

  @Mixin LevelSizeOptions levels = new LevelSizeOptions();

  @Mixin BackgroundThreadsOption threads = new BackgroundThreadsOption();

  @Option(names = {"-o", "--engine-option"}, paramLabel = "KEY=VALUE",
      description = "An option of IAM's embedded engine (docs/engine.md) on top of the budgets; repeatable."
          + " RocksDB ignores them.")
  Map<String, String> engineOptions = new LinkedHashMap<>();

  @Option(names = "--settle-timeout", paramLabel = "SECONDS", defaultValue = "600",
      description = "How long to wait for background compactions after a load. Default: ${DEFAULT-VALUE}.")
  long settleTimeoutSeconds;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Directory for the stores' data (DIR/<store>/P1 …), kept afterwards. Default: a new"
          + " temporary directory, deleted afterwards unless --keep.")
  Path dir;

  @Option(names = "--keep", description = "Keep the temporary data directory.")
  boolean keep;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Also write load.csv, queries.csv, load.png (Fig. 4-5) and query-io.png (Fig. 6) into DIR.")
  Path out;

  @Mixin JsonOption json = new JsonOption();

  @Mixin ProgressOption progress = new ProgressOption();

  @Override
  public Integer call() throws IOException {
    Map<String, LoadTarget.Factory> factories = new LinkedHashMap<>();
    for (String name : stores) {
      LoadTarget.Factory factory = LoadTargets.find(name).orElseThrow(() -> usage(LoadTargets.unknown(name, "store")));
      if (factories.put(name, factory) != null) {
        throw usage("--stores names '" + name + "' twice");
      }
    }
    if (records < 1) {
      throw usage("--records " + records + " is out of range: allowed 1 or more");
    }
    if (disorder < 1) {
      throw usage("--disorder " + disorder + " is out of range: allowed 1 or more");
    }
    if (queries < 1) {
      throw usage("--queries " + queries + " is out of range: allowed 1 or more");
    }
    if (cache.bytes() < 1) {
      throw usage("--cache must be at least 1 byte: the query I/O is counted as block-cache misses");
    }
    LoadConfig config = config();
    TaxiTrips trips = new TaxiTrips(seed.value(), disorder);
    Map<Projection, ProjectionsResult.Shape> stream = new EnumMap<>(Projection.class);
    for (Projection p : Projection.values()) {
      stream.put(p, ProjectionsResult.Shape.of(trips, p, records));
    }
    if (out != null) {
      Files.createDirectories(out);
    }
    PrintWriter stdout = spec.commandLine().getOut();
    ProjectionsBench bench = new ProjectionsBench(trips, records, queries, progress.enabled());
    Map<String, List<ProjectionFigures>> results = new LinkedHashMap<>();
    try (RunDir runDir = RunDir.of(dir, "projections", keep, spec.commandLine().getErr(), "iam projections")) {
      for (Map.Entry<String, LoadTarget.Factory> store : factories.entrySet()) {
        Path storeDir = runDir.path().resolve(store.getKey());
        if (!runDir.temporary()) {
          Dirs.newOrEmptyProblem(storeDir).ifPresent(problem -> {
            throw usage("--dir: " + problem);
          });
        }
        Files.createDirectories(storeDir);
        Jvm.releaseHeap();
        results.put(store.getKey(), bench.run(store.getValue(), config.withTree(store.getKey()), storeDir));
      }
    }
    ProjectionsResult result = new ProjectionsResult(records, seed.value(), disorder, queries, config, stream, results);
    ProjectionsReport.print(stdout, result);
    if (out != null) {
      ProjectionsReport.csv(out, result);
      ProjectionsCharts.write(out, result);
    }
    if (json.enabled()) {
      stdout.println(ProjectionsReport.json(result));
    }
    stdout.flush();
    return 0;
  }

  private LoadConfig config() {
    if (memtable.bytes() < 1 || threads.count() < 1 || settleTimeoutSeconds < 1) {
      throw usage("--memtable, --threads and --settle-timeout must be at least 1");
    }
    long files = levels.fileSize(memtable.bytes());
    long base = levels.levelBase(memtable.bytes());
    try {
      return new LoadConfig(stores.get(0), memtable.bytes(), cache.bytes(), LoadConfig.DEFAULT_BLOOM_BITS_PER_KEY,
          files, base, LoadConfig.DEFAULT_LEVEL_SIZE_MULTIPLIER, LoadConfig.DEFAULT_LEVEL0_COMPACTION_TRIGGER,
          threads.count(), false, Duration.ofSeconds(settleTimeoutSeconds), engineOptions);
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
  }

  /** The defaults of the options from {@link io.iam.bench.cli.options}. */
  static final class Defaults extends OptionDefaults {
    Defaults() {
      super(Map.of("--seed", "42", "--memtable", "256KiB", "--cache", "1MiB", "--threads", "1"));
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
