package io.iam.core.engine;

import com.google.common.util.concurrent.RateLimiter;
import io.iam.core.cache.BlockCache;
import io.iam.core.engine.WriterQueue.Writer;
import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.seam.StoreParts;
import io.iam.core.engine.seam.StoreTree;
import io.iam.core.engine.seam.TableCache;
import io.iam.core.engine.seam.TableWriter;
import io.iam.core.fs.Fs;
import io.iam.core.fs.FsLock;
import io.iam.core.fs.LocalFs;
import io.iam.core.iter.InternalIterator;
import io.iam.core.iter.MergingIterator;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.KeyComparator;
import io.iam.core.memtable.Lookup;
import io.iam.core.memtable.MemTable;
import io.iam.core.option.OptionValues;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.LevelBuffers;
import io.iam.core.manifest.NodeMeta;
import io.iam.core.manifest.StoreFiles;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionSet;
import io.iam.core.table.TableOptions;
import io.iam.core.wal.LogWriter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An embedded, durable, ordered key-value store over byte[] keys: a write-ahead log, concurrent
 * memtables flushed in the background, MSTable files, a manifest of versions, a shared block
 * cache, and background compaction. Thread-safe for any number of readers and writers.
 *
 * <p>Writers queue; the writer at the head of the queue appends the whole group to the log (one
 * fsync for every synced writer in the group), applies it to the memtable and wakes the others
 * (group commit, as in LevelDB). A full memtable becomes immutable and a background thread
 * flushes it to level 0. Writers slow down, then stall (never fail) while flushes or level-0
 * compactions fall behind; the time is counted in {@link Statistics}.
 *
 * <p>Lock order: {@code mutex} guards the writer queue, the memtables, the snapshot list and the
 * compaction bookkeeping; table and log I/O happen outside it, except the manifest, which {@link
 * VersionSet} serializes itself.
 */
public final class IamStore implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(IamStore.class.getName());

  private final Fs fs;
  private final Path dir;
  private final OptionValues options;
  private final InternalKeyComparator cmp;
  private final FsLock lock;
  private final VersionSet versions;
  private final BlockCache blockCache;
  private final TableCache tables;
  private final TableWriter writer;
  /** Which files a purge considers, without listing the directory each time. */
  private final StoreDirectory directory;
  /** How the data below the memtables is kept: everything that depends on the tree. */
  private final StoreTree tree;
  private final BackgroundJobs jobs;
  /** The counters the store's parts bump; {@link #stats} is their public view. */
  private final StoreCounters counters;
  private final Statistics stats;
  private final FilePurger purger;
  private final ScanCounter scans;
  private final long memtableSize;
  /** Options read on every write, looked up once. */
  private final int l0SlowdownTrigger;
  private final int l0StopTrigger;
  private final int maxImmutableMemtables;
  private final int maxKey;
  private final int maxValue;

  private final ReentrantLock mutex = new ReentrantLock();
  private final Condition backgroundDone = mutex.newCondition();
  private final WriterQueue writers = new WriterQueue(mutex);
  private final TreeMap<Long, Integer> snapshots = new TreeMap<>();
  private final AtomicInteger openIterators = new AtomicInteger();

  private final MemtableLog memtables;
  private volatile boolean closing;

  private IamStore(Fs fs, Path dir, OptionValues options, KeyComparator comparator, FsLock lock, VersionSet versions,
      InternalKeyComparator cmp) {
    this.fs = fs;
    this.dir = dir;
    this.options = options;
    this.cmp = cmp;
    this.lock = lock;
    this.versions = versions;
    int levels = options.get(StoreOptions.MAX_LEVELS);
    this.counters = new StoreCounters(levels);
    this.stats = new Statistics(counters);
    this.blockCache = StoreTrees.blockCache(options);
    TableOptions format = tableOptions(options);
    this.tables = new TableCache(fs, dir, blockCache, format, cmp, counters);
    this.writer = new TableWriter(tables, fs, dir, blockCache, format, cmp, options.get(StoreOptions.TARGET_FILE_SIZE));
    this.directory = new StoreDirectory(fs, dir);
    this.scans = new ScanCounter(tables, counters);
    long rate = options.get(StoreOptions.COMPACTION_RATE_LIMIT);
    this.memtableSize = options.get(StoreOptions.MEMTABLE_SIZE);
    this.l0SlowdownTrigger = options.get(StoreOptions.L0_SLOWDOWN_TRIGGER);
    this.l0StopTrigger = options.get(StoreOptions.L0_STOP_TRIGGER);
    this.maxImmutableMemtables = options.get(StoreOptions.MAX_IMMUTABLE_MEMTABLES);
    this.maxKey = options.get(StoreOptions.MAX_KEY_SIZE);
    this.maxValue = options.get(StoreOptions.MAX_VALUE_SIZE);
    this.purger = new FilePurger(fs, dir, directory, tables, versions, mutex, backgroundDone, this::obsoleteLocked,
        () -> closing);
    this.memtables = new MemtableLog(fs, dir, directory, versions, cmp, counters);
    String name = String.valueOf(dir.getFileName());
    this.jobs = new BackgroundJobs(name, options.get(StoreOptions.BACKGROUND_THREADS), mutex, backgroundDone, versions,
        tables, directory, counters, memtables, purger, rate == 0 ? null : RateLimiter.create(rate), () -> closing,
        this::smallestSnapshot);
    this.tree = StoreTrees.create(new StoreParts(name, versions, tables, writer, blockCache, counters, cmp, levels), jobs,
        options);
    jobs.attach(tree);
  }

  /** The table file format {@code options} ask for. */
  private static TableOptions tableOptions(OptionValues options) {
    return new TableOptions(options.get(StoreOptions.BLOCK_SIZE).intValue(), options.get(StoreOptions.BLOOM_BITS_PER_KEY),
        TableOptions.DEFAULT.restartInterval());
  }

  /** Opens (or creates) a store with default options on the local file system. */
  public static IamStore open(Path dir) throws IOException {
    return open(dir, StoreOptions.defaults());
  }

  /** Opens (or creates) a store with validated options (see {@link StoreOptions#parse}). */
  public static IamStore open(Path dir, OptionValues options) throws IOException {
    return open(LocalFs.INSTANCE, dir, options, BytewiseComparator.INSTANCE);
  }

  /**
   * Opens the store in {@code dir}, creating it if the directory is missing or empty, and
   * recovering it otherwise: the manifest is replayed, then every log not yet flushed.
   *
   * @throws IOException if the directory holds something that is not a store (it is left
   *     untouched), if another process has the store open, or if recovery finds damage the
   *     {@code wal-recovery} mode does not allow (the message names the file and offset)
   */
  public static IamStore open(Fs fs, Path dir, OptionValues options, KeyComparator comparator) throws IOException {
    if (options.table() != StoreOptions.TABLE) {
      throw new IllegalArgumentException("options must come from StoreOptions.parse");
    }
    if (options.get(StoreOptions.TABLE_READS) == TableReads.DIRECT) {
      fs = new io.iam.core.fs.DirectReadFs(fs, p -> StoreFiles.tableNumber(p).isPresent());
    }
    boolean exists = fs.exists(dir.resolve(StoreFiles.CURRENT));
    if (!exists && fs.exists(dir) && !fs.list(dir).isEmpty()) {
      throw new IOException(dir + " is not an IAM store (no CURRENT file) and is not empty; refusing to touch it");
    }
    fs.createDirectories(dir);
    FsLock lock = fs.lock(dir.resolve(StoreFiles.LOCK));
    IamStore store = null;
    try {
      InternalKeyComparator cmp = new InternalKeyComparator(comparator);
      int levels = options.get(StoreOptions.MAX_LEVELS);
      TreeKind tree = options.get(StoreOptions.TREE);
      String treeName = StoreOptions.TREE.type().format(tree);
      LevelBuffers buffers = StoreTrees.levelBuffers(tree, comparator, levels);
      VersionSet versions = exists
          ? VersionSet.recover(fs, dir, cmp, levels, buffers)
          : VersionSet.create(fs, dir, cmp, levels, treeName, tree.nodeTree(), buffers);
      versions.maxManifestSize(options.get(StoreOptions.MAX_MANIFEST_SIZE));
      if (!versions.treeName().equals(treeName)) {
        versions.close();
        throw new IOException("store " + dir + " was created with tree=" + versions.treeName()
            + "; it cannot be opened with tree=" + treeName);
      }
      store = new IamStore(fs, dir, options, comparator, lock, versions, cmp);
      store.mutex.lock();
      try {
        store.memtables.recover(store.memtableSize, options.get(StoreOptions.WAL_RECOVERY), store.tree);
      } finally {
        store.mutex.unlock();
      }
      store.purger.purgeNow();
      store.tree.opened(); // not before: a trim's purge must not race recovery's new files
      store.mutex.lock();
      try {
        store.jobs.scheduleLocked();
      } finally {
        store.mutex.unlock();
      }
      return store;
    } catch (IOException | RuntimeException e) {
      if (store != null) {
        store.closeQuietly();
      } else {
        lock.close();
      }
      throw e;
    }
  }

  // ---------------------------------------------------------------- writes

  public void put(byte[] key, byte[] value) throws IOException {
    write(new WriteBatch().put(key, value), WriteOptions.DEFAULT);
  }

  public void put(byte[] key, byte[] value, WriteOptions opts) throws IOException {
    write(new WriteBatch().put(key, value), opts);
  }

  public void delete(byte[] key) throws IOException {
    write(new WriteBatch().delete(key), WriteOptions.DEFAULT);
  }

  public void delete(byte[] key, WriteOptions opts) throws IOException {
    write(new WriteBatch().delete(key), opts);
  }

  /**
   * Applies a batch atomically. When it returns the batch is in the log (on stable storage if
   * {@code opts.sync()}) and visible to reads.
   *
   * @throws IllegalArgumentException for null or oversized keys or values (the message states
   *     the limit)
   * @throws IOException if the log could not be written; the batch was not applied
   */
  public void write(WriteBatch batch, WriteOptions opts) throws IOException {
    validate(batch);
    mutex.lock();
    try {
      ensureOpen();
      Writer w = writers.enqueue(batch, opts.sync());
      if (w.done()) {
        if (w.error() != null) {
          throw new IOException(w.error().getMessage(), w.error());
        }
        return;
      }
      List<Writer> group = List.of(w);
      IOException error = null;
      try {
        makeRoomForWrite();
        group = writers.group(w);
        error = commit(group);
      } catch (IOException e) {
        error = e;
      }
      writers.finish(group, w, error);
      if (error != null) {
        throw error;
      }
    } finally {
      mutex.unlock();
    }
  }

  private void validate(WriteBatch batch) {
    batch.forEachRange((type, buf, keyOffset, keyLength, valueOffset, valueLength) -> {
      if (keyLength > maxKey) {
        throw new IllegalArgumentException("key of " + keyLength + " bytes exceeds max-key-size=" + maxKey);
      }
      if (valueLength > maxValue) {
        throw new IllegalArgumentException("value of " + valueLength + " bytes exceeds max-value-size=" + maxValue);
      }
    });
  }

  /** Logs and applies a group of batches; called by the group's leader holding {@code mutex}. */
  private IOException commit(List<Writer> group) {
    long first = versions.lastSequence() + 1;
    boolean sync = group.stream().anyMatch(x -> x.sync);
    LogWriter log = memtables.log();
    MemTable table = memtables.active();
    mutex.unlock();
    long seq = first;
    try {
      for (Writer x : group) {
        x.batch.stamp(seq);
        log.addRecord(x.batch.buffer(), 0, x.batch.byteSize());
        counters.walBytes.add(x.batch.byteSize());
        seq += x.batch.count();
      }
      if (sync) {
        memtables.syncClosedLogs();
        log.sync();
        counters.walSyncs.increment();
      }
      memtables.unsynced(!sync);
      long next = first;
      for (Writer x : group) {
        counters.userBytes.add(x.batch.applyTo(table, next));
        next += x.batch.count();
        counters.userWrites.add(x.batch.count());
      }
      return null;
    } catch (IOException e) {
      return e;
    } finally {
      mutex.lock();
      if (seq > first) {
        versions.setLastSequence(seq - 1);
      }
    }
  }

  /**
   * Waits until the memtable has room, switching to a new one when it is full. Called holding
   * {@code mutex}.
   */
  private void makeRoomForWrite() throws IOException {
    boolean delayed = false;
    long[] stalledBy = null; // this write's stand-still per cause, once it stands still
    while (true) {
      ensureOpen();
      int l0 = tree.stallFiles(versions.current());
      if (!delayed && l0 >= l0SlowdownTrigger) {
        long start = System.nanoTime();
        mutex.unlock();
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while delayed");
        } finally {
          mutex.lock();
        }
        counters.slowdownNanos.add(System.nanoTime() - start);
        delayed = true;
      } else if (memtables.active().approximateBytes() < memtableSize) {
        if (stalledBy != null) {
          stats.stallEnded(stalledBy);
        }
        return;
      } else if (memtables.immutables() >= maxImmutableMemtables || l0 >= l0StopTrigger) {
        StallCause cause = l0 >= l0StopTrigger ? StallCause.LEVEL0_FULL
            : jobs.flushWaitsForTreeLocked() ? StallCause.FLUSH_WAITS_FOR_TREE : StallCause.FLUSH_RUNNING;
        long start = System.nanoTime();
        jobs.scheduleLocked();
        try {
          backgroundDone.await(100, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while stalled");
        }
        long stood = System.nanoTime() - start;
        stats.stalled(cause, stood);
        if (stalledBy == null) {
          stalledBy = new long[StallCause.values().length];
        }
        stalledBy[cause.ordinal()] += stood;
      } else {
        memtables.switchMemtable();
        jobs.scheduleLocked();
      }
    }
  }

  // ---------------------------------------------------------------- reads

  /** The newest value of {@code key}, or null if it is absent or deleted. */
  public byte[] get(byte[] key) throws IOException {
    return get(key, ReadOptions.DEFAULT);
  }

  /**
   * What one read sees: its sequence number, the memtables newest first, and the pinned version
   * (release it with {@link Version#unref()}). Reads take it without the store's mutex (except
   * with tree=minmax), so they never wait for writers, flushes or compactions.
   */
  private record ReadView(long sequence, List<MemTable> memtables, Version version, long ticket) {}

  private ReadView readView(ReadOptions opts) throws IOException {
    if (!tree.readsTakeTicket()) {
      // Without the mutex, in this order: the sequence, then the memtables, then the version. A
      // write at or below the sequence has reached a memtable, and that memtable is in the list
      // read after it, or has left the list after its flush installed the version pinned after it.
      ensureOpen();
      long sequence = sequenceOf(opts);
      List<MemTable> readable = memtables.readable();
      return new ReadView(sequence, readable, versions.pinCurrent(), 0);
    }
    mutex.lock(); // the tree's read ticket is taken with the view, before the version is pinned
    try {
      ensureOpen();
      long ticket = tree.openRead(); // before the version is pinned
      return new ReadView(sequenceOf(opts), memtables.readable(), versions.pinCurrent(), ticket);
    } finally {
      mutex.unlock();
    }
  }

  /** The value of {@code key} as of {@code opts.snapshot()} (or the latest), or null. */
  public byte[] get(byte[] key, ReadOptions opts) throws IOException {
    java.util.Objects.requireNonNull(key, "key must not be null");
    counters.gets.increment();
    ReadView view = readView(opts);
    long sequence = view.sequence();
    Version version = view.version();
    try {
      Lookup l = Lookup.ABSENT;
      for (int i = 0; l.isAbsent() && i < view.memtables().size(); i++) {
        l = view.memtables().get(i).get(key, sequence);
      }
      if (!l.isAbsent()) {
        return l.isFound() ? l.value().clone() : null; // the memtable's own array must not escape
      }
      return tree.get(version, key, sequence, opts.snapshot() == null);
    } finally {
      version.unref();
      tree.closeRead(view.ticket());
    }
  }

  private long sequenceOf(ReadOptions opts) {
    if (opts.snapshot() == null) {
      return versions.lastSequence();
    }
    if (opts.snapshot().isClosed()) {
      throw new IllegalArgumentException("snapshot " + opts.snapshot().sequence() + " was released");
    }
    return opts.snapshot().sequence();
  }

  /** An iterator over every live key, positioned nowhere: call seek or seekToFirst. */
  public StoreIterator iterator() throws IOException {
    return iterator(ReadOptions.DEFAULT);
  }

  public StoreIterator iterator(ReadOptions opts) throws IOException {
    ReadView view = readView(opts);
    long sequence = view.sequence();
    Version version = view.version();
    List<InternalIterator> children = new ArrayList<>();
    view.memtables().forEach(m -> children.add(TableCache.iterator(m)));
    try {
      tree.addIterators(version, opts.snapshot() == null, opts.upperBound(), children);
    } catch (IOException | RuntimeException e) {
      version.unref();
      tree.closeRead(view.ticket());
      throw e;
    }
    openIterators.incrementAndGet();
    return new StoreIterator(new MergingIterator(cmp, children), cmp.userComparator(), sequence, opts.upperBound(), () -> {
      version.unref();
      tree.closeRead(view.ticket());
      openIterators.decrementAndGet();
    }, target -> {
      scans.count(version, target);
      tree.countSeek();
    });
  }

  /** Takes a snapshot of everything written so far. Release it with {@link Snapshot#close()}. */
  public Snapshot snapshot() {
    mutex.lock();
    try {
      if (closing) {
        throw new IllegalStateException("store " + dir + " is closed");
      }
      long seq = versions.lastSequence();
      snapshots.merge(seq, 1, Integer::sum);
      return new Snapshot(seq, this);
    } finally {
      mutex.unlock();
    }
  }

  void release(Snapshot s) {
    mutex.lock();
    try {
      snapshots.computeIfPresent(s.sequence(), (k, v) -> v == 1 ? null : v - 1);
    } finally {
      mutex.unlock();
    }
  }

  /** The oldest sequence any reader may still ask for. Called holding {@code mutex}. */
  private long smallestSnapshot() {
    return snapshots.isEmpty() ? versions.lastSequence() : snapshots.firstKey();
  }

  // ---------------------------------------------------------------- files

  /** What a purge may delete now. Holds {@code mutex}. */
  private FilePurger.Obsolete obsoleteLocked() {
    Set<Long> live = versions.liveFiles();
    jobs.addPendingTo(live);
    return new FilePurger.Obsolete(live, versions.logNumber(), versions.manifestNumber(),
        memtables.oldestImmutableLog(), memtables.logNumber(),
        versions.peekNextFileNumber());
  }

  // ---------------------------------------------------------------- control and introspection

  /**
   * Flushes the memtable and waits until no flush or compaction is due or running. For tests and
   * benchmarks that want a settled tree.
   */
  public void flushAndSettle() throws IOException {
    mutex.lock();
    try {
      ensureOpen();
      // Switch memtables as a writer would: at the head of the writer queue, so that no group
      // commit is writing into the memtable being frozen.
      writers.takeTurn();
      try {
        if (!memtables.active().isEmpty()) {
          memtables.switchMemtable();
        }
      } finally {
        writers.passTurn();
      }
      while (true) {
        ensureOpen();
        jobs.scheduleLocked();
        if (!jobs.busyLocked()) {
          return;
        }
        try {
          backgroundDone.await(100, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while settling");
        }
      }
    } finally {
      mutex.unlock();
    }
  }

  public Statistics statistics() {
    return stats;
  }

  /** The live files per level (level 0 newest first). */
  public List<List<FileMeta>> levels() {
    return perLevel(Version::files);
  }

  private <T> List<List<T>> perLevel(java.util.function.BiFunction<Version, Integer, List<T>> level) {
    Version v = versions.current();
    List<List<T>> out = new ArrayList<>();
    for (int i = 0; i < v.numLevels(); i++) {
      out.add(level.apply(v, i));
    }
    return out;
  }

  /** The tree the store was created with. */
  public TreeKind tree() {
    return options.get(StoreOptions.TREE);
  }

  /**
   * The nodes of a node tree per level (index 0, the memtable level, is empty; so is every level
   * of a leveled tree), each level sorted by key.
   */
  public List<List<NodeMeta>> nodes() {
    return perLevel(Version::nodes);
  }

  /** The on-disk levels of a node tree (0 for a leveled tree). */
  public int depth() {
    return versions.current().depth();
  }

  /** The store's tree. */
  StoreTree storeTree() {
    return tree;
  }

  /** The order of the store's user keys. */
  KeyComparator comparator() {
    return cmp.userComparator();
  }

  /** Bytes of all live table files. */
  public long diskBytes() {
    Version v = versions.current();
    return v.allFiles().stream().mapToLong(FileMeta::fileSize).sum()
        + v.buffer().allFiles().stream().mapToLong(FileMeta::fileSize).sum();
  }

  /**
   * Runs the tree's periodic maintenance now, as its background thread does (tree=lsbm: trims the
   * compaction buffer, removing buffer files with too few blocks cached, sparing those appended
   * since the previous trim). Returns the number of files removed; 0 for trees without one.
   */
  public int runMaintenance() throws IOException {
    ensureOpen();
    return tree.maintainNow();
  }

  public BlockCache blockCache() {
    return blockCache;
  }

  public OptionValues options() {
    return options;
  }

  /** The statistics as a table, one row per level, like RocksDB's {@code rocksdb.stats}. */
  public String describe() {
    return StatsReport.format(this);
  }

  /** How many times the manifest was replaced on reaching {@code max-manifest-size}. */
  long manifestRolls() {
    return versions.manifestRolls();
  }

  /** A map of every counter, plus per-level files and bytes, for benchmarks. */
  public Map<String, Number> properties() {
    return StatsReport.properties(this);
  }

  /**
   * Checks the whole tree: every file opens and verifies, its keys are in order and within its
   * recorded range, and level ≥ 1 files do not overlap. Returns the number of entries checked.
   *
   * @throws IOException describing the first problem found
   */
  public long verify() throws IOException {
    Version v = versions.pinCurrent();
    try {
      return TreeVerifier.verify(v, tables, cmp.userComparator());
    } finally {
      v.unref();
    }
  }

  private void ensureOpen() throws IOException {
    if (closing) {
      throw new IOException("store " + dir + " is closed");
    }
  }

  /**
   * Closes the store: background work stops (a running flush or compaction is abandoned and redone
   * from the log after reopening), files are closed, the lock is released. Unsynced writes are in
   * the log and recovered on the next open.
   */
  @Override
  public void close() throws IOException {
    mutex.lock();
    try {
      if (closing) {
        return;
      }
      closing = true;
      backgroundDone.signalAll();
    } finally {
      mutex.unlock();
    }
    jobs.shutdown();
    purger.shutdown();
    try {
      if (!jobs.awaitTermination(60, TimeUnit.SECONDS) || !purger.awaitTermination(60, TimeUnit.SECONDS)) {
        LOG.log(Level.WARNING, "background work did not stop within 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    tree.close();
    try {
      memtables.close();
      tables.close();
      versions.close();
    } finally {
      lock.close();
    }
  }

  private void closeQuietly() {
    try {
      close();
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "error while closing after a failed open", e);
    }
  }

  @Override
  public String toString() {
    return "IamStore[" + dir + ", " + versions.current() + "]";
  }
}
