package io.iam.bench.load;

import io.iam.core.engine.IamStore;
import io.iam.core.engine.Statistics;
import io.iam.core.engine.StoreIterator;
import io.iam.core.engine.StoreOptions;
import io.iam.core.engine.WriteOptions;
import io.iam.core.option.InvalidOptionsException;
import io.iam.core.option.Option;
import io.iam.core.option.OptionValues;
import io.iam.core.manifest.FileMeta;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * IAM's embedded engine, {@link IamStore}, as a load target. The name it is registered under is
 * its tree: the store option {@code tree} is {@link LoadConfig#tree()} ({@code leveled} is {@code
 * TreeKind.LEVELED}), so one factory serves every tree the engine has.
 *
 * <p>It gets the budgets {@link RocksDbTarget} gets:
 *
 * <ul>
 *   <li>{@code memtable-size} = {@link LoadConfig#memtableBytes()}, {@code
 *       max-immutable-memtables} = 1: two memtables at most, one filling while the other is
 *       flushed (RocksDB's {@code max_write_buffer_number} = 2).
 *   <li>{@code block-cache-size} = {@link LoadConfig#cacheBytes()}, {@code bloom-bits-per-key} =
 *       {@link LoadConfig#bloomBitsPerKey()}.
 *   <li>{@code target-file-size}, {@code level-base-size}, {@code level-size-ratio}, {@code
 *       l0-compaction-trigger} from {@link LoadConfig#targetFileBytes()}, {@link
 *       LoadConfig#levelBaseBytes()}, {@link LoadConfig#levelSizeMultiplier()}, {@link
 *       LoadConfig#level0CompactionTrigger()}; slowdown and stop triggers at their defaults (20 and
 *       36 level-0 files, RocksDB's too).
 *   <li>{@code background-threads} = {@link LoadConfig#backgroundThreads()}: the engine's
 *       compaction threads; flushes have a thread of their own, so 1 means one flush thread plus
 *       one compaction thread, as RocksDB's {@code max_background_jobs} = 1 does.
 *   <li>No compression (the engine has none). The write-ahead log is on; {@link LoadConfig#sync()}
 *       decides whether each put syncs it.
 * </ul>
 *
 * <p>{@link #settle()} is {@link IamStore#flushAndSettle()}, bounded by {@link
 * LoadConfig#settleTimeout()}. {@link #metrics()} reads the store's {@link Statistics}: per level,
 * the bytes written are flushes (level 0) or compaction output; files moved down a level without
 * being rewritten count nowhere. {@link LoadMetrics#engineStats()} is {@link IamStore#describe()},
 * {@link #properties()} is {@link IamStore#properties()}.
 *
 * <p>{@link #get} is {@link IamStore#get(byte[])}, {@link #delete} is {@link IamStore#delete(byte[],
 * WriteOptions)}; {@link #scan} and {@link #scanRange} open an {@link IamStore#iterator()},
 * seek it and read each entry's key and value (a range stops at the first key past its end), then
 * close it. {@link #ioCounters()} comes from {@link Statistics} and the block cache's misses.
 */
public final class IamStoreTarget implements LoadTarget {

  /** The name of the leveled tree ({@code TreeKind.LEVELED}). */
  public static final String LEVELED = "leveled";

  /** Full memtables that may wait for their flush: with the active one, two memtables, as RocksDB's. */
  static final int IMMUTABLE_MEMTABLES = 1;

  private final String name;
  private final LoadConfig config;
  private final IamStore store;
  private final WriteOptions writeOptions;

  private IamStoreTarget(LoadConfig config, IamStore store) {
    this.name = config.tree();
    this.config = config;
    this.store = store;
    this.writeOptions = config.sync() ? WriteOptions.SYNC : WriteOptions.DEFAULT;
  }

  /**
   * Opens a new store in {@code dir}; the {@link LoadTarget.Factory} of the engine's trees.
   *
   * @throws InvalidOptionsException if the engine has no tree of that name or refuses a budget
   *     (e.g. a memtable under 64 KiB); the message starts with the tree's name and lists every
   *     problem
   */
  public static IamStoreTarget open(Path dir, LoadConfig config) throws IOException {
    return new IamStoreTarget(config, IamStore.open(dir, options(config)));
  }

  /** The store options of a load: the tree by its name, the budgets every target gets. */
  static OptionValues options(LoadConfig config) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(StoreOptions.TREE.key(), config.tree());
    put(m, StoreOptions.MEMTABLE_SIZE, config.memtableBytes());
    put(m, StoreOptions.MAX_IMMUTABLE_MEMTABLES, IMMUTABLE_MEMTABLES);
    put(m, StoreOptions.BLOCK_CACHE_SIZE, config.cacheBytes());
    put(m, StoreOptions.BLOOM_BITS_PER_KEY, config.bloomBitsPerKey());
    put(m, StoreOptions.TARGET_FILE_SIZE, config.targetFileBytes());
    put(m, StoreOptions.LEVEL_BASE_SIZE, config.levelBaseBytes());
    put(m, StoreOptions.LEVEL_SIZE_RATIO, config.levelSizeMultiplier());
    put(m, StoreOptions.L0_COMPACTION_TRIGGER, config.level0CompactionTrigger());
    put(m, StoreOptions.BACKGROUND_THREADS, config.backgroundThreads());
    m.putAll(config.engineOptions());
    try {
      return StoreOptions.parse(m);
    } catch (InvalidOptionsException e) {
      throw new InvalidOptionsException(config.tree(), e.problems());
    }
  }

  private static <T extends Comparable<T>> void put(Map<String, String> m, Option<T> option, T value) {
    m.put(option.key(), option.type().format(value));
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    store.put(key, value, writeOptions);
  }

  /** {@link IamStore} takes writes from any number of threads (a group commit queues them). */
  @Override
  public boolean concurrentPuts() {
    return true;
  }

  @Override
  public void settle() throws IOException {
    SettleWaiter.bounded(name, config.settleTimeout(), store::flushAndSettle);
  }

  @Override
  public LoadMetrics metrics() {
    Statistics s = store.statistics();
    List<List<FileMeta>> files = store.levels();
    List<LevelMetrics> levels = new ArrayList<>();
    for (int level = 0; level < files.size(); level++) {
      int count = files.get(level).size();
      long bytes = files.get(level).stream().mapToLong(FileMeta::fileSize).sum();
      long written = s.bytesWrittenTo(level);
      if (count > 0 || written > 0) {
        levels.add(new LevelMetrics(level, count, bytes, written, s.writeAmplification(level)));
      }
    }
    return new LoadMetrics(s.userBytes(), s.flushBytes(), s.compactionBytesWritten(), store.diskBytes(), levels,
        store.describe());
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    return store.get(key);
  }

  @Override
  public void delete(byte[] key) throws IOException {
    store.delete(key, writeOptions);
  }

  @Override
  public int scan(byte[] start, int limit, Entries entries) throws IOException {
    return (int) walk(start, limit, null, entries);
  }

  @Override
  public long scanRange(byte[] start, byte[] endInclusive, Entries entries) throws IOException {
    return walk(start, Long.MAX_VALUE, endInclusive, entries);
  }

  /** Reads from {@code start} up to {@code limit} entries, stopping at the first key past {@code end} (if any). */
  private long walk(byte[] start, long limit, byte[] end, Entries entries) throws IOException {
    try (StoreIterator it = store.iterator()) {
      it.seek(start);
      return Scans.read(it::valid, it::key, it::value, it::next, limit, end, entries);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  @Override
  public IoCounters ioCounters() {
    Statistics s = store.statistics();
    long compactionRead = 0;
    for (int level = 0; level < s.levels(); level++) {
      compactionRead += s.compactionBytesRead(level);
    }
    return new IoCounters(s.asMap().get("compaction.count").longValue(), compactionRead, store.blockCache().misses());
  }

  @Override
  public Map<String, Number> properties() {
    return store.properties();
  }

  @Override
  public void close() throws IOException {
    store.close();
  }
}
