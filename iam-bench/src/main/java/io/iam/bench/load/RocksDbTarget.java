package io.iam.bench.load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.rocksdb.AbstractNativeReference;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyMetaData;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.HistogramType;
import org.rocksdb.LRUCache;
import org.rocksdb.LevelMetaData;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * RocksDB (rocksdbjni) as a load target, set up like the IAM paper's leveled peer.
 *
 * <ul>
 *   <li>Leveled compaction with static level sizes ({@code level_compaction_dynamic_level_bytes =
 *       false}; 9.x defaults to dynamic): {@code max_bytes_for_level_base} = {@link
 *       LoadConfig#levelBaseBytes()}, {@code max_bytes_for_level_multiplier} = {@link
 *       LoadConfig#levelSizeMultiplier()}, {@code level0_file_num_compaction_trigger} = {@link
 *       LoadConfig#level0CompactionTrigger()}, {@code target_file_size_base} = {@link
 *       LoadConfig#targetFileBytes()}, one subcompaction.
 *   <li>{@code write_buffer_size} = {@link LoadConfig#memtableBytes()}, {@code
 *       max_write_buffer_number} = 2 (one memtable can be flushed while the other fills).
 *   <li>{@code max_background_jobs} = {@link LoadConfig#backgroundThreads()}. RocksDB splits the
 *       jobs into flushes (a quarter, at least 1) and compactions (the rest, at least 1), in two
 *       thread pools, so 1 means one flush thread and one compaction thread: at most one flush and
 *       one compaction run at any time. RocksDB cannot run flushes and compactions on one shared
 *       thread with its default environment.
 *   <li>An LRU block cache of {@link LoadConfig#cacheBytes()} that also holds index and filter
 *       blocks ({@code cache_index_and_filter_blocks}), so the whole read budget is the cache; a
 *       full-key Bloom filter of {@link LoadConfig#bloomBitsPerKey()} bits per key.
 *   <li>No compression (the values are incompressible, and IAM's engine does not compress).
 *   <li>The write-ahead log is on; {@link LoadConfig#sync()} decides whether each put syncs it.
 * </ul>
 *
 * <p>Registered twice: as {@value #NAME} with the leveled compaction above, and as {@value
 * #UNIVERSAL} with universal compaction ({@code compaction_style = kCompactionStyleUniversal}) at
 * RocksDB's default universal options (size ratio 1 %, merge width 2 and up, size amplification 200 %):
 * level 0 and each sorted run below it; {@code level0_file_num_compaction_trigger} is then the number
 * of sorted runs that triggers a compaction, and the level sizes are unused. Budgets, cache, filter
 * and write-ahead log are the same.
 *
 * <p>Bytes written come from the statistics tickers {@code FLUSH_WRITE_BYTES} and {@code
 * COMPACT_WRITE_BYTES} (the WAL is not counted). Per-level files and sizes come from {@code
 * getColumnFamilyMetaData()}. Bytes written per level come from the compaction-stats table of
 * {@code rocksdb.cfstats} (its map form, {@code compaction.L<n>.WriteGB}), which RocksDB keeps in
 * GiB with six decimals: per level they are exact to about 1 KiB, and they add up to the tickers'
 * total within a few KiB (level 0's figure is the flushes'). The disk size is the size of the live
 * table files ({@code getColumnFamilyMetaData().size()}, what {@code rocksdb.live-sst-files-size}
 * reports); the WAL and the manifest are not counted. {@link LoadMetrics#engineStats()} is RocksDB's
 * own {@code rocksdb.stats} text. {@link #properties()} has the time writers stalled, from the
 * {@code STALL_MICROS} ticker.
 *
 * <p>{@link #get} is {@code RocksDB.get}, {@link #delete} is {@code RocksDB.delete}; {@link #scan}
 * and {@link #scanRange} open a {@code newIterator()}, seek it and read each entry's key and value
 * (a range stops at the first key past its end), then close it, as YCSB's RocksDB binding scans.
 * {@link #ioCounters()} comes from the statistics (see {@link IoCounters}).
 */
public final class RocksDbTarget implements LoadTarget {

  /** The name under which this target is registered: leveled compaction. */
  public static final String NAME = "rocksdb";

  /** The name of the same set-up with universal compaction, RocksDB's tiered style. */
  public static final String UNIVERSAL = "rocksdb-universal";

  private static final double GIB = 1024.0 * 1024 * 1024;

  private final String name;
  private final LoadConfig config;
  private final Statistics statistics;
  private final LRUCache cache;
  private final BloomFilter bloom;
  private final Options options;
  private final WriteOptions writeOptions;
  private final RocksDB db;
  private final LongAdder userBytes = new LongAdder();
  private boolean closed;

  private RocksDbTarget(LoadConfig config, Statistics statistics, LRUCache cache, BloomFilter bloom,
      Options options, WriteOptions writeOptions, RocksDB db) {
    this.name = config.tree();
    this.config = config;
    this.statistics = statistics;
    this.cache = cache;
    this.bloom = bloom;
    this.options = options;
    this.writeOptions = writeOptions;
    this.db = db;
  }

  /**
   * Opens a new database in {@code dir}; the {@link LoadTarget.Factory} of {@value #NAME} and
   * {@value #UNIVERSAL}.
   */
  public static RocksDbTarget open(Path dir, LoadConfig config) throws IOException {
    RocksDB.loadLibrary();
    Statistics statistics = new Statistics();
    LRUCache cache = new LRUCache(config.cacheBytes());
    BloomFilter bloom = new BloomFilter(config.bloomBitsPerKey());
    Options options = new Options();
    WriteOptions writeOptions = new WriteOptions();
    try {
      BlockBasedTableConfig table = new BlockBasedTableConfig()
          .setBlockCache(cache)
          .setFilterPolicy(bloom)
          .setCacheIndexAndFilterBlocks(true);
      options.setCreateIfMissing(true)
          .setErrorIfExists(true)
          .setStatistics(statistics)
          .setTableFormatConfig(table)
          .setCompactionStyle(UNIVERSAL.equals(config.tree()) ? CompactionStyle.UNIVERSAL : CompactionStyle.LEVEL)
          .setLevelCompactionDynamicLevelBytes(false)
          .setWriteBufferSize(config.memtableBytes())
          .setMaxWriteBufferNumber(2)
          .setTargetFileSizeBase(config.targetFileBytes())
          .setMaxBytesForLevelBase(config.levelBaseBytes())
          .setMaxBytesForLevelMultiplier(config.levelSizeMultiplier())
          .setLevel0FileNumCompactionTrigger(config.level0CompactionTrigger())
          .setMaxBackgroundJobs(config.backgroundThreads())
          .setMaxSubcompactions(1)
          .setCompressionType(CompressionType.NO_COMPRESSION)
          .setBottommostCompressionType(CompressionType.NO_COMPRESSION);
      writeOptions.setSync(config.sync()).setDisableWAL(false);
      RocksDB db = RocksDB.open(options, dir.toString());
      return new RocksDbTarget(config, statistics, cache, bloom, options, writeOptions, db);
    } catch (RocksDBException e) {
      closeAll(writeOptions, options, bloom, cache, statistics);
      throw io(config.tree(), "open " + dir, e);
    } catch (RuntimeException | Error e) {
      closeAll(writeOptions, options, bloom, cache, statistics);
      throw e;
    }
  }

  private static void closeAll(AbstractNativeReference... resources) {
    for (AbstractNativeReference r : resources) {
      r.close();
    }
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    try {
      db.put(writeOptions, key, value);
    } catch (RocksDBException e) {
      throw io(name, "put", e);
    }
    userBytes.add(key.length + value.length);
  }

  /** RocksDB's puts are thread-safe, and the user bytes are a {@link LongAdder}. */
  @Override
  public boolean concurrentPuts() {
    return true;
  }

  @Override
  public void settle() throws IOException {
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush);
    } catch (RocksDBException e) {
      throw io(name, "flush", e);
    }
    SettleWaiter.of(name, config.settleTimeout()).await(this::backgroundWork);
  }

  private SettleWaiter.Work backgroundWork() throws IOException {
    try {
      return new SettleWaiter.Work(
          db.getLongProperty("rocksdb.mem-table-flush-pending") != 0,
          (int) db.getLongProperty("rocksdb.num-running-flushes"),
          db.getLongProperty("rocksdb.compaction-pending") != 0,
          (int) db.getLongProperty("rocksdb.num-running-compactions"),
          statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES)
              + statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES));
    } catch (RocksDBException e) {
      throw io(name, "read background work properties", e);
    }
  }

  @Override
  public Map<String, Number> properties() {
    return Map.of(EngineCounters.STALL_MICROS, statistics.getTickerCount(TickerType.STALL_MICROS));
  }

  @Override
  public LoadMetrics metrics() throws IOException {
    long flushBytes = statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES);
    long compactionBytes = statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES);
    Map<String, String> cfstats;
    String stats;
    try {
      cfstats = db.getMapProperty("rocksdb.cfstats");
      stats = db.getProperty("rocksdb.stats");
    } catch (RocksDBException e) {
      throw io(name, "read rocksdb.cfstats and rocksdb.stats", e);
    }
    ColumnFamilyMetaData meta = db.getColumnFamilyMetaData();
    List<LevelMetrics> levels = new ArrayList<>();
    for (LevelMetaData level : meta.levels()) {
      long written = writtenBytes(cfstats, level.level());
      int files = level.files().size();
      if (files > 0 || written > 0) {
        levels.add(LevelMetrics.of(level.level(), files, level.size(), written, userBytes.sum()));
      }
    }
    return new LoadMetrics(userBytes.sum(), flushBytes, compactionBytes, meta.size(), levels, stats);
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    try {
      return db.get(key);
    } catch (RocksDBException e) {
      throw io(name, "get", e);
    }
  }

  @Override
  public void delete(byte[] key) throws IOException {
    try {
      db.delete(writeOptions, key);
    } catch (RocksDBException e) {
      throw io(name, "delete", e);
    }
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
    try (RocksIterator it = db.newIterator()) {
      it.seek(start);
      long read = Scans.read(it::isValid, it::key, it::value, it::next, limit, end, entries);
      it.status();
      return read;
    } catch (RocksDBException e) {
      throw io(name, "scan", e);
    }
  }

  @Override
  public IoCounters ioCounters() {
    return new IoCounters(statistics.getHistogramData(HistogramType.COMPACTION_TIME).getCount(),
        statistics.getTickerCount(TickerType.COMPACT_READ_BYTES),
        statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS));
  }

  /**
   * Bytes written into a level, from {@code compaction.L<n>.WriteGB} of {@code rocksdb.cfstats};
   * 0 if RocksDB lists no stats for the level (it lists only levels with files or compactions).
   */
  static long writtenBytes(Map<String, String> cfstats, int level) {
    String gib = cfstats.get("compaction.L" + level + ".WriteGB");
    return gib == null ? 0 : Math.round(Double.parseDouble(gib) * GIB);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      db.closeE();
    } catch (RocksDBException e) {
      throw io(name, "close", e);
    } finally {
      closeAll(writeOptions, options, bloom, cache, statistics);
    }
  }

  private static IOException io(String store, String what, RocksDBException e) {
    String status = e.getStatus() == null ? "" : " [" + e.getStatus().getCodeString() + "]";
    return new IOException(store + ": " + what + " failed: " + e.getMessage() + status, e);
  }
}
