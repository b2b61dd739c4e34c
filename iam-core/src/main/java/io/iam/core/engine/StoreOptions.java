package io.iam.core.engine;

import io.iam.core.tree.lsbm.LsbmLevels;

import io.iam.core.option.InvalidOptionsException;
import io.iam.core.option.Option;
import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionType;
import io.iam.core.option.OptionValues;
import io.iam.core.wal.RecoveryMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every option of an embedded store, declared once. {@link #parse} validates them all and reports
 * every problem at once. Defaults follow RocksDB's where the two engines share a notion.
 */
public final class StoreOptions {

  public static final Option<TreeKind> TREE =
      Option.builder("tree", OptionType.enumOf(TreeKind.class))
          .defaultValue(TreeKind.IAM).bounds(TreeKind.LEVELED, TreeKind.STACK)
          .doc("the tree the store keeps its files in: leveled, iam, lsa, lsm-merge, lsbm, minmax or stack; fixed when the store is created").build();

  public static final Option<Integer> FANOUT =
      Option.builder("fanout", OptionType.INT)
          .defaultValue(10).bounds(2, 1000)
          .doc("node trees: t, the nodes a node has below it; level i holds about t^i nodes").build();

  public static final Option<Integer> MIXED_LEVEL =
      Option.builder("mixed-level", OptionType.INT)
          .defaultValue(0).bounds(0, 19)
          .doc("tree=iam: a fixed mixed level m (levels above append, below merge); 0 chooses m from the block cache").build();

  public static final Option<Integer> MIXED_LEVEL_SEQUENCES =
      Option.builder("mixed-level-sequences", OptionType.INT)
          .defaultValue(0).bounds(0, 1000)
          .doc("tree=iam: a fixed k, the sequences a node of the mixed level holds before it is merged; 0 chooses k from the block cache").build();

  public static final Option<CacheBudget> APPEND_CACHE_BUDGET =
      Option.builder("append-cache-budget", OptionType.enumOf(CacheBudget.class))
          .defaultValue(CacheBudget.FULL).bounds(CacheBudget.FULL, CacheBudget.HALF)
          .doc("tree=iam: appended sequences may fill the whole block cache (full, the paper's M) or half of it (half, M/2)").build();

  public static final Option<ProtectedSequences> PROTECTED_SEQUENCES =
      Option.builder("protected-sequences", OptionType.enumOf(ProtectedSequences.class))
          .defaultValue(ProtectedSequences.APPENDED).bounds(ProtectedSequences.APPENDED, ProtectedSequences.PAPER)
          .doc("tree=iam: which sequences the m/k rule keeps in memory: appended (every sequence but its node's oldest,"
              + " on every level) or paper (also the oldest of each node above the mixed level, as in §5.1.3)").build();

  public static final Option<TableReads> TABLE_READS =
      Option.builder("table-reads", OptionType.enumOf(TableReads.class))
          .defaultValue(TableReads.BUFFERED).bounds(TableReads.BUFFERED, TableReads.DIRECT)
          .doc("how block-cache misses read table files: buffered (through the OS page cache) or direct"
              + " (O_DIRECT, as RocksDB's use_direct_reads; local file systems only)").build();

  public static final Option<AppendCaching> APPEND_CACHING =
      Option.builder("append-caching", OptionType.enumOf(AppendCaching.class))
          .defaultValue(AppendCaching.ON_WRITE).bounds(AppendCaching.ON_READ, AppendCaching.ON_WRITE)
          .doc("tree=iam: appended sequences enter the block cache when read (on-read) or as they are written (on-write)").build();

  public static final Option<LsbmLevels> LSBM_LEVELS =
      Option.builder("lsbm-levels", OptionType.enumOf(LsbmLevels.class))
          .defaultValue(LsbmLevels.GEAR).bounds(LsbmLevels.GEAR, LsbmLevels.LEVELED)
          .doc("tree=lsbm: gear (each level has two halves C_i and C_i' kept in step by bLSM's gear scheduler, as in the paper;"
              + " B_i' goes at the pace C_i' drains) or leveled (one run per level, compacted as tree=leveled)").build();

  public static final Option<Integer> LSBM_TRIM_INTERVAL_MS =
      Option.builder("lsbm-trim-interval-ms", OptionType.INT)
          .defaultValue(1000).bounds(0, 3_600_000)
          .doc("tree=lsbm: milliseconds between trims of the compaction buffer (Algorithm 2); 0: no background trim").build();

  public static final Option<Double> LSBM_TRIM_THRESHOLD =
      Option.builder("lsbm-trim-threshold", OptionType.DOUBLE)
          .defaultValue(0.5).bounds(0.0, 1.0)
          .doc("tree=lsbm: a trim removes a buffer file with less than this fraction of its blocks cached; 0 keeps every file").build();

  public static final Option<Double> LSBM_BUFFER_FRACTION =
      Option.builder("lsbm-buffer-fraction", OptionType.DOUBLE)
          .defaultValue(1.0).bounds(0.0, 10.0)
          .doc("tree=lsbm: B_i holds at most this fraction of C_i's budget; beyond it files with the smallest maximum key go first").build();

  public static final Option<Double> LSBM_FREEZE_SHRINK =
      Option.builder("lsbm-freeze-shrink", OptionType.DOUBLE)
          .defaultValue(0.1).bounds(0.0, 1.0)
          .doc("tree=lsbm: a merge into C_i+1 that writes under (1 - this) of the bytes it read found repeated data and freezes B_i+1 until C_i+1 turns over; 1 never freezes").build();

  public static final Option<Integer> MINMAX_CACHE =
      Option.builder("minmax-cache", OptionType.INT)
          .defaultValue(65_536).bounds(1, 1 << 26)
          .doc("tree=minmax: B, the entries the sorted write cache holds; when it is full its most compact window is evicted as a bucket").build();

  public static final Option<Integer> MINMAX_WINDOW =
      Option.builder("minmax-window", OptionType.INT)
          .defaultValue(64).bounds(1, 1 << 26)
          .doc("tree=minmax: W, the entries of a window, hence of a bucket (at most minmax-cache); each write recomputes W windows, so the drain's cost grows with W").build();

  public static final Option<Integer> MINMAX_SORT_OVERLAP =
      Option.builder("minmax-sort-overlap", OptionType.INT)
          .defaultValue(0).bounds(0, 1 << 20)
          .doc("tree=minmax: d; a background sort merges the buckets holding a key once more than d buckets hold it; 0: no sort, buckets are never merged").build();

  private static final OptionType<String> POLICY_NAME = OptionType.oneOf("policy", io.iam.core.policy.MergePolicies.names());

  public static final Option<String> STACK_POLICY =
      Option.builder("stack-policy", POLICY_NAME)
          .defaultValue("tiering").bounds(POLICY_NAME.choices().get(0), POLICY_NAME.choices().get(POLICY_NAME.choices().size() - 1))
          .doc("tree=stack: the stack policy that decides which runs each flush is merged with").build();

  public static final Option<Integer> STACK_SIZE_RATIO =
      Option.builder("stack-size-ratio", OptionType.INT)
          .defaultValue(10).bounds(2, 1000)
          .doc("tree=stack: the policy's size-ratio, T for leveling and tiering (policies without one ignore it)").build();

  public static final Option<Integer> STACK_MAX_COMPONENTS =
      Option.builder("stack-max-components", OptionType.INT)
          .defaultValue(6).bounds(1, io.iam.core.policy.StackMath.MAX_K)
          .doc("tree=stack: the policy's max-components, k for the depth-bounded policies (others ignore it)").build();

  public static final Option<Long> MEMTABLE_SIZE =
      Option.builder("memtable-size", OptionType.SIZE)
          .defaultValue(128L << 20).bounds(64L << 10, 16L << 30)
          .doc("a memtable this large becomes immutable and is flushed in the background; in node trees also C_t, the size at which a node is full").build();

  public static final Option<Integer> MAX_IMMUTABLE_MEMTABLES =
      Option.builder("max-immutable-memtables", OptionType.INT)
          .defaultValue(2).bounds(1, 64)
          .doc("writers stall while this many full memtables wait for their flush").build();

  public static final Option<Long> BLOCK_CACHE_SIZE =
      Option.builder("block-cache-size", OptionType.SIZE)
          .defaultValue(256L << 20).bounds(0L, 1L << 40)
          .doc("bytes of decoded blocks kept in memory, shared by every table file").build();

  public static final Option<Long> BLOCK_SIZE =
      Option.builder("block-size", OptionType.SIZE)
          .defaultValue(4096L).bounds(256L, 1L << 20)
          .doc("target size of a table data block").build();

  public static final Option<Integer> BLOOM_BITS_PER_KEY =
      Option.builder("bloom-bits-per-key", OptionType.INT)
          .defaultValue(14).bounds(0, 64)
          .doc("Bloom filter bits per key of each sorted sequence (0: no filter)").build();

  public static final Option<Long> TARGET_FILE_SIZE =
      Option.builder("target-file-size", OptionType.SIZE)
          .defaultValue(64L << 20).bounds(64L << 10, 16L << 30)
          .doc("compaction output files are cut at about this size").build();

  public static final Option<Long> LEVEL_BASE_SIZE =
      Option.builder("level-base-size", OptionType.SIZE)
          .defaultValue(256L << 20).bounds(64L << 10, 1L << 50)
          .doc("level 1 holds this many bytes before it compacts into level 2").build();

  public static final Option<Integer> LEVEL_SIZE_RATIO =
      Option.builder("level-size-ratio", OptionType.INT)
          .defaultValue(10).bounds(2, 1000)
          .doc("each level below 1 holds this many times the bytes of the one above").build();

  public static final Option<Integer> MAX_LEVELS =
      Option.builder("max-levels", OptionType.INT)
          .defaultValue(7).bounds(2, 20)
          .doc("number of levels, level 0 included").build();

  public static final Option<Integer> L0_COMPACTION_TRIGGER =
      Option.builder("l0-compaction-trigger", OptionType.INT)
          .defaultValue(4).bounds(1, 1000)
          .doc("level 0 compacts into level 1 once it holds this many files").build();

  public static final Option<Integer> L0_SLOWDOWN_TRIGGER =
      Option.builder("l0-slowdown-trigger", OptionType.INT)
          .defaultValue(20).bounds(1, 1000)
          .doc("writes are delayed 1 ms each while level 0 holds this many files").build();

  public static final Option<Integer> L0_STOP_TRIGGER =
      Option.builder("l0-stop-trigger", OptionType.INT)
          .defaultValue(36).bounds(1, 1000)
          .doc("writes wait while level 0 holds this many files").build();

  public static final Option<Integer> BACKGROUND_THREADS =
      Option.builder("background-threads", OptionType.INT)
          .defaultValue(1).bounds(1, 64)
          .doc("threads that run compactions (flushes have one thread of their own, as in RocksDB)").build();

  public static final Option<Integer> NODE_FLUSH_WRITERS =
      Option.builder("node-flush-writers", OptionType.INT)
          .defaultValue(8).bounds(1, 64)
          .doc("node trees: children's shares of one node flush that are merged and encoded at once; 1 does"
              + " the CPU work of a flush on one thread at a time, the strict reading of one background thread."
              + " A writer waiting for a sync makes way for the next (node-flush-io-depth). Memtable flushes"
              + " have as many writers of their own, so they never queue behind a compaction").build();

  public static final Option<Integer> LEVEL_ONE_FULL_WAIT_MS =
      Option.builder("level-one-full-wait-ms", OptionType.INT)
          .defaultValue(10).bounds(0, 600_000)
          .doc("node trees: milliseconds a memtable flush waits for a level-1 node at its hard limit (2 × C_t)"
              + " to flush before it writes into it anyway, if its share still fits the node's file; bounds how"
              + " long writers stand still behind a full node whose own flush waits for full children. 0 writes"
              + " at once").build();

  public static final Option<Integer> NODE_FLUSH_IO_DEPTH =
      Option.builder("node-flush-io-depth", OptionType.INT)
          .defaultValue(8).bounds(1, 64)
          .doc("node trees: children's writes of one node flush in flight at once, counting those waiting"
              + " for their syncs; at most node-flush-writers of them encode at a time. Raised to"
              + " node-flush-writers if lower; 1 (with one writer) makes each child wait for its syncs"
              + " before the next starts").build();

  public static final Option<Long> COMPACTION_RATE_LIMIT =
      Option.builder("compaction-rate-limit", OptionType.SIZE)
          .defaultValue(0L).bounds(0L, 1L << 40)
          .doc("bytes per second that flushes and compactions may write (0: unlimited)").build();

  public static final Option<Long> MAX_MANIFEST_SIZE =
      Option.builder("max-manifest-size", OptionType.SIZE)
          .defaultValue(64L << 20).bounds(1L << 10, 1L << 40)
          .doc("once the manifest grows past this many bytes, a new one holding only the current state replaces it"
              + " (RocksDB's max_manifest_file_size), so a long-running store opens quickly").build();

  public static final Option<RecoveryMode> WAL_RECOVERY =
      Option.builder("wal-recovery", OptionType.enumOf(RecoveryMode.class))
          .defaultValue(RecoveryMode.TOLERATE_CORRUPTED_TAIL)
          .bounds(RecoveryMode.values()[0], RecoveryMode.values()[RecoveryMode.values().length - 1])
          .doc("how a damaged write-ahead log is treated on open (salvage: skip-corrupted-records)").build();

  public static final Option<Integer> MAX_KEY_SIZE =
      Option.builder("max-key-size", OptionType.INT)
          .defaultValue(64 << 10).bounds(1, 16 << 20)
          .doc("longest key accepted, in bytes").build();

  public static final Option<Integer> MAX_VALUE_SIZE =
      Option.builder("max-value-size", OptionType.INT)
          .defaultValue(64 << 20).bounds(0, 1 << 30)
          .doc("longest value accepted, in bytes").build();

  public static final OptionTable TABLE =
      OptionTable.of(
          "store",
          List.of(TREE, FANOUT, MIXED_LEVEL, MIXED_LEVEL_SEQUENCES, APPEND_CACHE_BUDGET, APPEND_CACHING, PROTECTED_SEQUENCES,
              LSBM_LEVELS, LSBM_TRIM_INTERVAL_MS, LSBM_TRIM_THRESHOLD, LSBM_BUFFER_FRACTION, LSBM_FREEZE_SHRINK,
              MINMAX_CACHE, MINMAX_WINDOW, MINMAX_SORT_OVERLAP, STACK_POLICY, STACK_SIZE_RATIO, STACK_MAX_COMPONENTS, MEMTABLE_SIZE, MAX_IMMUTABLE_MEMTABLES, BLOCK_CACHE_SIZE, BLOCK_SIZE,
              BLOOM_BITS_PER_KEY, TARGET_FILE_SIZE, LEVEL_BASE_SIZE, LEVEL_SIZE_RATIO, MAX_LEVELS,
              L0_COMPACTION_TRIGGER, L0_SLOWDOWN_TRIGGER, L0_STOP_TRIGGER, BACKGROUND_THREADS, NODE_FLUSH_WRITERS, NODE_FLUSH_IO_DEPTH, LEVEL_ONE_FULL_WAIT_MS, TABLE_READS,
              COMPACTION_RATE_LIMIT, MAX_MANIFEST_SIZE, WAL_RECOVERY, MAX_KEY_SIZE, MAX_VALUE_SIZE),
          v -> v.get(L0_COMPACTION_TRIGGER) <= v.get(L0_SLOWDOWN_TRIGGER)
                  && v.get(L0_SLOWDOWN_TRIGGER) <= v.get(L0_STOP_TRIGGER)
              ? Optional.empty()
              : Optional.of(v.nameOf(L0_COMPACTION_TRIGGER) + "=" + v.get(L0_COMPACTION_TRIGGER)
                  + ", " + v.nameOf(L0_SLOWDOWN_TRIGGER) + "=" + v.get(L0_SLOWDOWN_TRIGGER) + ", "
                  + v.nameOf(L0_STOP_TRIGGER) + "=" + v.get(L0_STOP_TRIGGER) + ": allowed compaction <= slowdown <= stop"),
          v -> v.get(MINMAX_WINDOW) <= v.get(MINMAX_CACHE)
              ? Optional.empty()
              : Optional.of(v.nameOf(MINMAX_WINDOW) + "=" + v.get(MINMAX_WINDOW) + ", " + v.nameOf(MINMAX_CACHE) + "="
                  + v.get(MINMAX_CACHE) + ": a window holds at most the cache (window <= cache)"));

  private StoreOptions() {}

  /**
   * Validates text options (unknown keys and bad values all reported at once).
   *
   * @throws InvalidOptionsException listing every problem
   */
  public static OptionValues parse(Map<String, String> options) {
    return TABLE.parse(options);
  }

  public static OptionValues defaults() {
    return TABLE.defaults();
  }
}
