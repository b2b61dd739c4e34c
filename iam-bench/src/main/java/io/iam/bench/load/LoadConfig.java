package io.iam.bench.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How a store under test is set up for a load. Every target gets the same budgets, so that two
 * stores loaded with the same config are compared like for like.
 *
 * @param tree the registered name the target was opened under (a factory may serve several names,
 *     e.g. one engine with different merge policies)
 * @param memtableBytes capacity of one memtable (RocksDB's {@code write_buffer_size})
 * @param cacheBytes block cache capacity
 * @param bloomBitsPerKey Bloom filter bits per key
 * @param targetFileBytes target size of a table file written by a compaction
 * @param levelBaseBytes capacity of the first level below level 0 ({@code max_bytes_for_level_base})
 * @param levelSizeMultiplier capacity ratio between adjacent levels below level 0
 * @param level0CompactionTrigger number of level-0 files that triggers a level-0 compaction
 * @param backgroundThreads background threads for flushes and compactions
 * @param sync whether each put syncs the write-ahead log
 * @param settleTimeout how long {@link LoadTarget#settle()} may wait for background work
 * @param engineOptions the store's own options on top of the budgets: for IAM's embedded engine its
 *     {@code StoreOptions}, e.g. {@code mixed-level=3}; for HBase and AsterixDB the compaction policy
 *     ({@value #POLICY}) and the policy's options; RocksDB ignores them
 */
public record LoadConfig(
    String tree,
    long memtableBytes,
    long cacheBytes,
    int bloomBitsPerKey,
    long targetFileBytes,
    long levelBaseBytes,
    int levelSizeMultiplier,
    int level0CompactionTrigger,
    int backgroundThreads,
    boolean sync,
    Duration settleTimeout,
    Map<String, String> engineOptions) {

  /** The engine option that names the merge policy of HBase and AsterixDB stores. */
  public static final String POLICY = "policy";

  public static final int DEFAULT_BLOOM_BITS_PER_KEY = 14;
  /** RocksDB's default. */
  public static final int DEFAULT_LEVEL_SIZE_MULTIPLIER = 10;
  /** RocksDB's default. */
  public static final int DEFAULT_LEVEL0_COMPACTION_TRIGGER = 4;
  /** The default level base is this many memtables, as in the IAM paper's leveled setup. */
  public static final int DEFAULT_LEVEL_BASE_MEMTABLES = 5;
  public static final Duration DEFAULT_SETTLE_TIMEOUT = Duration.ofMinutes(10);

  public LoadConfig {
    Objects.requireNonNull(tree, "tree");
    Objects.requireNonNull(settleTimeout, "settleTimeout");
    engineOptions = Map.copyOf(engineOptions);
    positive("memtableBytes", memtableBytes);
    positive("targetFileBytes", targetFileBytes);
    positive("levelBaseBytes", levelBaseBytes);
    positive("bloomBitsPerKey", bloomBitsPerKey);
    positive("backgroundThreads", backgroundThreads);
    positive("level0CompactionTrigger", level0CompactionTrigger);
    if (cacheBytes < 0) {
      throw new IllegalArgumentException("cacheBytes must not be negative: " + cacheBytes);
    }
    if (levelSizeMultiplier < 2) {
      throw new IllegalArgumentException("levelSizeMultiplier must be at least 2: " + levelSizeMultiplier);
    }
    if (settleTimeout.isNegative() || settleTimeout.isZero()) {
      throw new IllegalArgumentException("settleTimeout must be positive: " + settleTimeout);
    }
  }

  /**
   * The defaults of {@code iam load} for a memtable and cache size: Bloom 14 bits per key, files of
   * one memtable, level base of 5 memtables, multiplier 10, level-0 trigger 4, one background
   * thread, no sync.
   */
  public static LoadConfig defaults(String tree, long memtableBytes, long cacheBytes) {
    return new LoadConfig(tree, memtableBytes, cacheBytes, DEFAULT_BLOOM_BITS_PER_KEY, memtableBytes,
        DEFAULT_LEVEL_BASE_MEMTABLES * memtableBytes, DEFAULT_LEVEL_SIZE_MULTIPLIER,
        DEFAULT_LEVEL0_COMPACTION_TRIGGER, 1, false, DEFAULT_SETTLE_TIMEOUT, Map.of());
  }

  /** The same budgets with these engine options instead. */
  public LoadConfig withEngineOptions(Map<String, String> options) {
    return new LoadConfig(tree, memtableBytes, cacheBytes, bloomBitsPerKey, targetFileBytes, levelBaseBytes,
        levelSizeMultiplier, level0CompactionTrigger, backgroundThreads, sync, settleTimeout, options);
  }

  /** The same budgets under another tree name (for the peer of a {@code --vs} run). */
  public LoadConfig withTree(String otherTree) {
    return new LoadConfig(otherTree, memtableBytes, cacheBytes, bloomBitsPerKey, targetFileBytes,
        levelBaseBytes, levelSizeMultiplier, level0CompactionTrigger, backgroundThreads, sync,
        settleTimeout, engineOptions);
  }

  /** Puts the budgets into {@code o}, one field each ({@code tree} and the engine options left out). */
  public ObjectNode putJson(ObjectNode o) {
    o.put("memtableBytes", memtableBytes);
    o.put("cacheBytes", cacheBytes);
    o.put("bloomBitsPerKey", bloomBitsPerKey);
    o.put("targetFileBytes", targetFileBytes);
    o.put("levelBaseBytes", levelBaseBytes);
    o.put("levelSizeMultiplier", levelSizeMultiplier);
    o.put("level0CompactionTrigger", level0CompactionTrigger);
    o.put("backgroundThreads", backgroundThreads);
    o.put("sync", sync);
    return o;
  }

  private static void positive(String name, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }
}
