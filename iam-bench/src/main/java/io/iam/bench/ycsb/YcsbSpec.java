package io.iam.bench.ycsb;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * What {@code iam ycsb} runs.
 *
 * @param engine a store name of {@link io.iam.bench.load.LoadTargets}
 * @param workload a letter of {@link Workloads#NAMES}, or {@value #LOAD_ONLY} for the load phase only
 * @param records records the load phase inserts (YCSB's {@code recordcount})
 * @param operations operations of the transaction phase ({@code operationcount}); unused for {@value
 *     #LOAD_ONLY}
 * @param threads client threads of both phases ({@code threadcount})
 * @param dir the store's directory, new or empty
 * @param memtableBytes memtable capacity
 * @param cacheBytes block cache capacity
 * @param engineOptions the store's own options ({@link io.iam.bench.load.LoadConfig#engineOptions()}):
 *     the embedded engine's store options, or the policy and its options for HBase and AsterixDB
 */
public record YcsbSpec(String engine, String workload, long records, long operations, int threads, Path dir,
    long memtableBytes, long cacheBytes, Map<String, String> engineOptions) {

  /** The workload name that runs the load phase alone. */
  public static final String LOAD_ONLY = "load";

  public YcsbSpec {
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(dir, "dir");
    if (records < 1 || records > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("records must be 1 to " + Integer.MAX_VALUE + ": " + records);
    }
    if (operations < 0 || operations > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("operations must be 0 to " + Integer.MAX_VALUE + ": " + operations);
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be positive: " + threads);
    }
    engineOptions = Map.copyOf(engineOptions);
  }

  /** A spec without engine options. */
  public YcsbSpec(String engine, String workload, long records, long operations, int threads, Path dir,
      long memtableBytes, long cacheBytes) {
    this(engine, workload, records, operations, threads, dir, memtableBytes, cacheBytes, Map.of());
  }

  /** Whether only the load phase runs. */
  public boolean loadOnly() {
    return LOAD_ONLY.equals(workload);
  }

  /**
   * The workload's properties (workload A's for {@value #LOAD_ONLY}: the load phase uses only record
   * count and layout, which every core workload shares) with the counts, threads and the store's
   * {@link StoreDb} properties set.
   */
  public Properties properties() {
    Properties p = Workloads.of(loadOnly() ? Workloads.NAMES.get(0) : workload);
    p.setProperty("recordcount", Long.toString(records));
    p.setProperty("operationcount", Long.toString(operations));
    p.setProperty("threadcount", Integer.toString(threads));
    p.setProperty(StoreDb.ENGINE, engine);
    p.setProperty(StoreDb.DIR, dir.toString());
    p.setProperty(StoreDb.MEMTABLE, Long.toString(memtableBytes));
    p.setProperty(StoreDb.CACHE, Long.toString(cacheBytes));
    engineOptions.forEach((key, value) -> p.setProperty(StoreDb.OPTION_PREFIX + key, value));
    return p;
  }
}
