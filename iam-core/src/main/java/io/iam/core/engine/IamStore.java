package io.iam.core.engine;

import io.iam.core.tree.lsbm.CompactionBuffer;
import io.iam.core.manifest.LevelBuffers;

import io.iam.core.iter.MergingIterator;
import com.google.common.util.concurrent.RateLimiter;
import io.iam.core.cache.BlockCache;
import io.iam.core.cache.LruBlockCache;
import io.iam.core.cache.PriorityBlockCache;
import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import io.iam.core.fs.FsLock;
import io.iam.core.fs.LocalFs;
import io.iam.core.iter.InternalIterator;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.KeyComparator;
import io.iam.core.memtable.Lookup;
import io.iam.core.memtable.MemTable;
import io.iam.core.option.OptionValues;
import io.iam.core.tree.CompactionPick;
import io.iam.core.tree.CompactionPicker;
import io.iam.core.manifest.FileMeta;
import io.iam.core.tree.GearPicker;
import io.iam.core.tree.LeveledPicker;
import io.iam.core.manifest.NodeMeta;
import io.iam.core.manifest.StoreFiles;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionEdit;
import io.iam.core.manifest.VersionSet;
import io.iam.core.tree.lsbm.LsbmLevels;
import io.iam.core.util.DaemonThreads;
import io.iam.core.wal.LogWriter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
  private final LeveledPicker picker;
  /** What chooses compactions: {@link #picker}, or for tree=lsbm with lsbm-levels=gear a {@link GearPicker} over it. */
  private final CompactionPicker compactionPicker;
  /** The LSA/IAM executor; null for a leveled tree. */
  private final NodeTree nodeTree;
  /** tree=lsbm: the compaction buffer's engine side; null for the other trees. */
  private final LsbmBuffer lsbm;
  /** tree=minmax: the write cache and the buckets' IB-tree; null for the other trees. */
  private final MinMaxEngine minmax;
  /** tree=stack: the stack policy's executor; null for the other trees. */
  private final StackEngine stack;
  private final Statistics stats;
  private final ExecutorService background;
  private final ExecutorService flusher;
  /** Deletes obsolete files off the mutex: unlinking them can take milliseconds each. */
  private final ExecutorService purger;
  private boolean purgeScheduled;
  private boolean purgeAgain;
  private final RateLimiter rateLimiter;
  private final long memtableSize;
  /** Options read on every write, looked up once. */
  private final int l0SlowdownTrigger;
  private final int l0StopTrigger;
  private final int maxImmutableMemtables;
  private final int maxKey;
  private final int maxValue;

  private final ReentrantLock mutex = new ReentrantLock();
  private final Condition backgroundDone = mutex.newCondition();
  private final Deque<Writer> writers = new ArrayDeque<>();
  private final TreeMap<Long, Integer> snapshots = new TreeMap<>();
  private final Set<Long> busyFiles = new HashSet<>();
  /** Nodes reserved by running node-tree jobs. */
  private final Set<Long> busyNodes = new HashSet<>();
  private boolean memtableFlushRunning;
  private final Set<Long> pendingOutputs = new HashSet<>();
  private final byte[][] cursors;
  private final AtomicInteger openIterators = new AtomicInteger();

  private MemTable mem;
  private long memLogNumber;
  private final Deque<Immutable> imms = new ArrayDeque<>();
  private FsFile walFile;
  private LogWriter wal;
  /** Whether {@link #wal} holds records not yet synced. Written by the group leader, read under {@code mutex}. */
  private volatile boolean walUnsynced;
  /**
   * Logs a memtable switch closed while they held records not yet synced. A synced write syncs
   * them first ({@link #syncClosedLogs}), so it is never durable while an earlier write is not.
   */
  private final List<Long> unsyncedLogs = new ArrayList<>();
  private boolean flushScheduled;
  private int compactionsRunning;
  private IOException writeError;
  private long retryNanos;
  private volatile boolean closing;
  /**
   * The memtable and the immutable ones, newest first, as reads see them: republished under
   * {@code mutex} whenever a memtable is switched, flushed or recovered.
   */
  private volatile List<MemTable> readMemtables;

  /** A full memtable waiting for its flush, and the log that holds its writes. */
  private record Immutable(MemTable table, long logNumber) {}

  /** A queued write. */
  private static final class Writer {
    final WriteBatch batch;
    final boolean sync;
    final Condition cv;
    boolean done;
    IOException error;

    Writer(WriteBatch batch, boolean sync, Condition cv) {
      this.batch = batch;
      this.sync = sync;
      this.cv = cv;
    }
  }

  private IamStore(Fs fs, Path dir, OptionValues options, KeyComparator comparator, FsLock lock, VersionSet versions,
      InternalKeyComparator cmp) {
    this.fs = fs;
    this.dir = dir;
    this.options = options;
    this.cmp = cmp;
    this.lock = lock;
    this.versions = versions;
    int levels = options.get(StoreOptions.MAX_LEVELS);
    this.stats = new Statistics(levels);
    this.blockCache = newBlockCache(options);
    this.tables = new TableCache(fs, dir, blockCache, options, cmp, stats);
    this.writer = new TableWriter(tables, fs, dir, blockCache, options, cmp);
    this.directory = new StoreDirectory(fs, dir);
    this.picker = new LeveledPicker(cmp, new LeveledPicker.Config(
        options.get(StoreOptions.L0_COMPACTION_TRIGGER), options.get(StoreOptions.LEVEL_BASE_SIZE),
        options.get(StoreOptions.LEVEL_SIZE_RATIO)));
    this.compactionPicker = options.get(StoreOptions.TREE) == TreeKind.LSBM
        && options.get(StoreOptions.LSBM_LEVELS) == LsbmLevels.GEAR ? new GearPicker(picker) : picker;
    long rate = options.get(StoreOptions.COMPACTION_RATE_LIMIT);
    this.rateLimiter = rate == 0 ? null : RateLimiter.create(rate);
    this.memtableSize = options.get(StoreOptions.MEMTABLE_SIZE);
    this.l0SlowdownTrigger = options.get(StoreOptions.L0_SLOWDOWN_TRIGGER);
    this.l0StopTrigger = options.get(StoreOptions.L0_STOP_TRIGGER);
    this.maxImmutableMemtables = options.get(StoreOptions.MAX_IMMUTABLE_MEMTABLES);
    this.maxKey = options.get(StoreOptions.MAX_KEY_SIZE);
    this.maxValue = options.get(StoreOptions.MAX_VALUE_SIZE);
    this.cursors = new byte[levels][];
    this.background = Executors.newFixedThreadPool(options.get(StoreOptions.BACKGROUND_THREADS),
        DaemonThreads.named("iam-compaction-" + dir.getFileName() + "-"));
    // Flushes get their own thread, as in RocksDB, so a long compaction never holds up the
    // memtable that writers are waiting on.
    this.purger = Executors.newSingleThreadExecutor(DaemonThreads.named("iam-purge-" + dir.getFileName() + "-"));
    this.flusher = Executors.newSingleThreadExecutor(DaemonThreads.named("iam-flush-" + dir.getFileName() + "-"));
    this.mem = new MemTable(cmp);
    this.readMemtables = List.of(mem);
    this.nodeTree = options.get(StoreOptions.TREE).nodeTree()
        ? new NodeTree(versions, tables, writer, stats, blockCache, cmp, options) : null;
    this.lsbm = options.get(StoreOptions.TREE) == TreeKind.LSBM
        ? new LsbmBuffer(versions, tables, blockCache, stats, compactionPicker, options, String.valueOf(dir.getFileName()), () -> {
          mutex.lock();
          try {
            deleteObsoleteFilesLocked();
          } finally {
            mutex.unlock();
          }
        })
        : null;
    this.minmax = options.get(StoreOptions.TREE) == TreeKind.MINMAX ? new MinMaxEngine(versions, tables, writer, stats, cmp, options) : null;
    this.stack = options.get(StoreOptions.TREE) == TreeKind.STACK ? new StackEngine(versions, tables, writer, stats, cmp, options) : null;
  }

  /**
   * The IAM-tree gets a cache with a protected pool of the size its m/k choice budgets for (M, or
   * M/2 with {@code append-cache-budget=half}), so that reads of the merging levels never evict
   * the sequences the m/k rule keeps in memory (§5.1.3); the other trees get one LRU.
   */
  private static BlockCache newBlockCache(OptionValues options) {
    long m = options.get(StoreOptions.BLOCK_CACHE_SIZE);
    if (options.get(StoreOptions.TREE) != TreeKind.IAM) {
      return new LruBlockCache(m);
    }
    return new PriorityBlockCache(m, options.get(StoreOptions.APPEND_CACHE_BUDGET) == CacheBudget.HALF ? m / 2 : m);
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
      LevelBuffers buffers = tree == TreeKind.LSBM ? CompactionBuffer.empty(comparator, levels) : LevelBuffers.NONE;
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
      store.recoverLogs();
      store.deleteObsoleteFiles();
      if (store.lsbm != null) {
        store.lsbm.start(); // not before: a trim's purge must not race recovery's new files
      }
      if (store.nodeTree != null) {
        store.nodeTree.refreshProtection();
      }
      store.mutex.lock();
      try {
        store.maybeScheduleWork();
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

  // ---------------------------------------------------------------- recovery

  /**
   * Replays every log at or after the manifest's log number ({@link LogReplay}), flushes what it
   * rebuilt (a leveled tree writes level 0 at once, the other trees flush in the background), and
   * starts a new log.
   */
  private void recoverLogs() throws IOException {
    List<Immutable> recovered = new ArrayList<>();
    VersionEdit edit = new VersionEdit();
    LogReplay.Result replay = LogReplay.replay(fs, dir, versions.logNumber(), versions.lastSequence(),
        versions.flushedSequence(), cmp, memtableSize, options.get(StoreOptions.WAL_RECOVERY),
        (table, logNumber) -> recovered(table, logNumber, recovered, edit));
    versions.setLastSequence(replay.lastSequence());
    long newLog = versions.newFileNumber();
    openLog(newLog);
    // A node tree flushes recovered memtables in the background, like any other; their logs stay
    // until then.
    edit.logNumber(recovered.isEmpty() ? newLog : recovered.get(0).logNumber());
    versions.logAndApply(edit);
    if (recovered.isEmpty()) {
      for (long number : replay.logs()) {
        fs.delete(StoreFiles.log(dir, number));
      }
    }
    mutex.lock();
    try {
      imms.addAll(recovered);
      publishMemtables();
    } finally {
      mutex.unlock();
    }
  }

  /**
   * A memtable rebuilt from the logs (the first of which is {@code logNumber}): written to level 0
   * at once by a leveled tree, kept as an immutable memtable for the background flush by a node,
   * min-max or stack tree.
   */
  private void recovered(MemTable table, long logNumber, List<Immutable> recovered, VersionEdit edit) throws IOException {
    if (nodeTree != null || minmax != null || stack != null) {
      recovered.add(new Immutable(table, logNumber));
    } else {
      addIfWritten(edit, writeLevel0(table));
    }
  }

  private static void addIfWritten(VersionEdit edit, FileMeta level0) {
    if (level0 != null) {
      edit.add(0, level0);
    }
  }

  private void openLog(long number) throws IOException {
    Path path = StoreFiles.log(dir, number);
    FsFile file = fs.open(path, Fs.Mode.CREATE_NEW);
    directory.logMayExist(number);
    fs.syncDirectory(dir);
    if (wal != null) {
      synchronized (unsyncedLogs) {
        unsyncedLogs.removeIf(n -> n < versions.logNumber()); // flushed: their records are in synced tables
        if (walUnsynced) {
          unsyncedLogs.add(memLogNumber);
        }
      }
      wal.close();
      walFile.close();
    }
    walFile = file;
    wal = new LogWriter(file, path, 0);
    walUnsynced = false;
    memLogNumber = number;
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
    Writer w = new Writer(batch, opts.sync(), mutex.newCondition());
    mutex.lock();
    try {
      ensureOpen();
      writers.addLast(w);
      while (!w.done && writers.peekFirst() != w) {
        w.cv.awaitUninterruptibly();
      }
      if (w.done) {
        if (w.error != null) {
          throw new IOException(w.error.getMessage(), w.error);
        }
        return;
      }
      List<Writer> group = new ArrayList<>();
      IOException error = null;
      try {
        makeRoomForWrite();
      } catch (IOException e) {
        error = e;
      }
      if (error == null) {
        long size = 0;
        for (Writer x : writers) {
          if (!group.isEmpty() && (size > (1 << 20) || (x.sync && !w.sync))) {
            break;
          }
          group.add(x);
          size += x.batch.byteSize();
        }
        error = commit(group);
      } else {
        group.add(w);
      }
      for (Writer x : group) {
        writers.pollFirst();
        x.done = true;
        x.error = error;
        if (x != w) {
          x.cv.signal();
        }
      }
      if (!writers.isEmpty()) {
        writers.peekFirst().cv.signal();
      }
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

  /**
   * Syncs the logs in {@link #unsyncedLogs}: older logs whose memtables may not be flushed yet. A
   * log already deleted needs nothing: its memtable's flush synced its tables first. Called by the
   * group leader before it syncs the current log.
   */
  private void syncClosedLogs() throws IOException {
    List<Long> numbers;
    synchronized (unsyncedLogs) {
      if (unsyncedLogs.isEmpty()) {
        return;
      }
      numbers = List.copyOf(unsyncedLogs);
    }
    for (long n : numbers) {
      try (FsFile f = fs.open(StoreFiles.log(dir, n), Fs.Mode.READ)) {
        f.sync();
        stats.walSyncs.increment();
      } catch (java.nio.file.NoSuchFileException deleted) {
        // flushed and purged meanwhile: nothing was synced
      }
    }
    synchronized (unsyncedLogs) {
      unsyncedLogs.removeAll(numbers);
    }
  }

  /** Logs and applies a group of batches; called by the group's leader holding {@code mutex}. */
  private IOException commit(List<Writer> group) {
    long first = versions.lastSequence() + 1;
    boolean sync = group.stream().anyMatch(x -> x.sync);
    LogWriter log = wal;
    MemTable table = mem;
    mutex.unlock();
    long seq = first;
    try {
      for (Writer x : group) {
        x.batch.stamp(seq);
        log.addRecord(x.batch.buffer(), 0, x.batch.byteSize());
        stats.walBytes.add(x.batch.byteSize());
        seq += x.batch.count();
      }
      if (sync) {
        syncClosedLogs();
        log.sync();
        stats.walSyncs.increment();
      }
      walUnsynced = !sync;
      long next = first;
      for (Writer x : group) {
        stats.userBytes.add(x.batch.applyTo(table, next));
        next += x.batch.count();
        stats.userWrites.add(x.batch.count());
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
    while (true) {
      ensureOpen();
      // minmax and stack: level 0 holds the buckets or the runs, which the L0 triggers are not about
      int l0 = minmax != null || stack != null ? 0 : versions.current().files(0).size();
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
        stats.slowdownNanos.add(System.nanoTime() - start);
        delayed = true;
      } else if (mem.approximateBytes() < memtableSize) {
        return;
      } else if (imms.size() >= maxImmutableMemtables || l0 >= l0StopTrigger) {
        long start = System.nanoTime();
        maybeScheduleWork();
        try {
          backgroundDone.await(100, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while stalled");
        }
        stats.stallNanos.add(System.nanoTime() - start);
      } else {
        switchMemtable();
        maybeScheduleWork();
      }
    }
  }

  /** Publishes {@link #readMemtables} from {@code mem} and {@code imms}. Called holding {@code mutex}. */
  private void publishMemtables() {
    List<MemTable> memtables = new ArrayList<>();
    memtables.add(mem);
    imms.descendingIterator().forEachRemaining(i -> memtables.add(i.table()));
    readMemtables = List.copyOf(memtables);
  }

  /**
   * Freezes the memtable and starts a new one with a new log. The new log is opened first: if that
   * fails, nothing has changed. Called holding {@code mutex}.
   */
  private void switchMemtable() throws IOException {
    long frozenLog = memLogNumber;
    openLog(versions.newFileNumber());
    imms.addLast(new Immutable(mem, frozenLog));
    mem = new MemTable(cmp);
    publishMemtables();
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
  private record ReadView(long sequence, List<MemTable> memtables, Version version, long minmaxTicket) {}

  private ReadView readView(ReadOptions opts) throws IOException {
    if (minmax == null) {
      // Without the mutex, in this order: the sequence, then the memtables, then the version. A
      // write at or below the sequence has reached a memtable, and that memtable is in the list
      // read after it, or has left the list after its flush installed the version pinned after it.
      ensureOpen();
      long sequence = sequenceOf(opts);
      List<MemTable> memtables = readMemtables;
      return new ReadView(sequence, memtables, versions.pinCurrent(), 0);
    }
    mutex.lock(); // tree=minmax: its read ticket is taken with the view, before the version is pinned
    try {
      ensureOpen();
      long ticket = minmax.openRead(); // before the version is pinned
      return new ReadView(sequenceOf(opts), readMemtables, versions.pinCurrent(), ticket);
    } finally {
      mutex.unlock();
    }
  }

  /** The value of {@code key} as of {@code opts.snapshot()} (or the latest), or null. */
  public byte[] get(byte[] key, ReadOptions opts) throws IOException {
    java.util.Objects.requireNonNull(key, "key must not be null");
    stats.gets.increment();
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
      if (minmax != null) {
        return minmax.get(version, key, sequence);
      }
      byte[] seek = InternalKey.seekKey(key, sequence);
      for (FileMeta f : version.files(0)) {
        if (version.covers(f, key)) {
          TableCache.Found found = tables.get(f, seek, key);
          if (found != null) {
            return found.value();
          }
        }
      }
      boolean buffered = lsbm != null && opts.snapshot() == null; // the buffer answers only for the latest data
      for (int level = 1; level < version.numLevels(); level++) {
        FileMeta f = version.fileFor(level, key);
        if (f != null) {
          TableCache.Found found = buffered ? lsbm.get(version, f, key, seek, sequence) : tables.get(f, seek, key);
          if (found != null) {
            return found.value();
          }
        }
      }
      return null;
    } finally {
      version.unref();
      if (minmax != null) {
        minmax.closeRead(view.minmaxTicket());
      }
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
    if (minmax != null) {
      children.add(minmax.cacheIterator());
      children.add(minmax.bucketIterator(version, opts.upperBound())); // level 0: the buckets, opened as a scan reaches them
    }
    try {
      for (FileMeta f : minmax != null ? List.<FileMeta>of() : version.files(0)) {
        children.add(tables.iterator(f));
      }
      boolean buffered = lsbm != null && opts.snapshot() == null; // the buffer answers only for the latest data
      for (int level = 1; level < version.numLevels(); level++) {
        if (!version.files(level).isEmpty()) {
          children.add(buffered ? lsbm.levelIterator(version, version.files(level)) : tables.levelIterator(version.files(level)));
        }
      }
    } catch (IOException | RuntimeException e) {
      version.unref();
      if (minmax != null) {
        minmax.closeRead(view.minmaxTicket());
      }
      throw e;
    }
    openIterators.incrementAndGet();
    return new StoreIterator(new MergingIterator(cmp, children), cmp.userComparator(), sequence, opts.upperBound(), () -> {
      version.unref();
      if (minmax != null) {
        minmax.closeRead(view.minmaxTicket());
      }
      openIterators.decrementAndGet();
    }, target -> {
      countScan(version, target);
      if (minmax != null) {
        minmax.countSeek();
      }
    });
  }

  /**
   * Counts a scan starting at {@code target} (null: the first key), the on-disk sequences it reads
   * from, and those of them whose first block is not cached: every sequence of the level-0 files,
   * and on each deeper level those of the one file the seek lands in. A sequence whose keys all
   * lie before the seek key reads no block (its in-memory index says so) and is not counted as
   * uncached; before this was settled it was, which inflated the per-level maximum of node trees
   * (a node's small appended sequences often end before the node's range does).
   */
  private void countScan(Version version, byte[] target) {
    byte[] seek = target == null ? null : InternalKey.seekKey(target, InternalKey.MAX_SEQUENCE);
    long sequences = 0;
    long uncached = 0;
    try {
      for (int level = 0; level < version.numLevels(); level++) {
        List<FileMeta> files = level == 0 ? version.files(0) : new ArrayList<>();
        if (level > 0) {
          FileMeta f = version.fileAtOrAfter(level, target);
          if (f != null) {
            files.add(f);
          }
        }
        long levelUncached = 0;
        for (FileMeta f : files) {
          io.iam.core.table.MSTableReader r = tables.reader(f);
          for (int i = 0; i < f.sequenceCount(); i++) {
            sequences++;
            if (r.sequence(i).seekReadsUncachedBlock(seek)) {
              levelUncached++;
            }
          }
        }
        uncached += levelUncached;
        stats.scanUncachedAt(level, levelUncached);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    stats.scans.increment();
    stats.scanSequences.add(sequences);
    stats.scanUncachedSequences.add(uncached);
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

  /** {@link #smallestSnapshot()}, taking {@code mutex} for it. */
  private long smallestSnapshotNow() {
    mutex.lock();
    try {
      return smallestSnapshot();
    } finally {
      mutex.unlock();
    }
  }

  /** The oldest sequence any reader may still ask for. Called holding {@code mutex}. */
  private long smallestSnapshot() {
    return snapshots.isEmpty() ? versions.lastSequence() : snapshots.firstKey();
  }

  // ---------------------------------------------------------------- background work

  /** Starts a flush or compaction if one is due and a thread is free. Called holding {@code mutex}. */
  private void maybeScheduleWork() {
    if (closing) {
      return;
    }
    if (!imms.isEmpty() && !flushScheduled) {
      flushScheduled = true;
      flusher.execute(nodeTree != null ? this::flushNodeTreeInBackground
          : minmax != null ? this::flushMinMaxInBackground
          : stack != null ? this::flushStackInBackground : this::flushInBackground);
    }
    int threads = options.get(StoreOptions.BACKGROUND_THREADS);
    if (nodeTree != null) {
      scheduleNodeJobs(threads);
      return;
    }
    if (minmax != null) {
      scheduleMinMaxSort();
      return;
    }
    if (stack != null) {
      return; // a stack store merges as part of its flushes
    }
    while (compactionsRunning < threads) {
      CompactionPick pick = compactionPicker.pick(versions.current(), busyFiles, cursors);
      if (pick == null) {
        return;
      }
      for (FileMeta f : pick.allInputs()) {
        busyFiles.add(f.fileNumber());
      }
      compactionsRunning++;
      background.execute(() -> compactInBackground(pick));
    }
  }

  /** Starts node-tree jobs on free threads; adds a level inline when nothing runs. Holds {@code mutex}. */
  private void scheduleNodeJobs(int threads) {
    while (compactionsRunning < threads) {
      boolean idle = compactionsRunning == 0 && !memtableFlushRunning;
      NodeJob job = nodeTree.pick(versions.current(), busyNodes, idle);
      if (job == null) {
        return;
      }
      if (job.kind() == NodeJob.Kind.ADD_LEVEL) {
        try {
          nodeTree.addLevel();
        } catch (IOException e) {
          LOG.log(Level.WARNING, "could not add a level; will retry: " + e.getMessage(), e);
          return;
        }
        continue;
      }
      nodeTree.started(job);
      if (compactionsRunning > 0) {
        stats.parallelJobs.increment();
      }
      busyNodes.addAll(job.reserved());
      compactionsRunning++;
      background.execute(() -> runNodeJob(job));
    }
  }

  /** Runs a node-tree flush, split, move or combine on a background thread. */
  private void runNodeJob(NodeJob job) {
    List<Long> filled = java.util.Collections.synchronizedList(new ArrayList<>());
    boolean[] shrink = {false};
    long smallestSnapshot = smallestSnapshotNow();
    String what = "node-tree " + job.kind();
    runJob(what, outputs -> {
      if (!closing) {
        shrink[0] = nodeTree.run(job, null, null, new NodeTree.Io(smallestSnapshot, this::newOutputNumber, outputs, rateLimiter, filled));
        stats.compactions.increment();
      }
    }, (failure, outputs) -> {
      if (shrink[0] && failure == null) {
        try {
          nodeTree.shrink(job, busyNodes);
        } catch (IOException e) {
          LOG.log(Level.WARNING, "could not rebalance node ranges after a flush: " + e.getMessage(), e);
        }
      }
      busyNodes.removeAll(job.reserved());
      if (failure != null) {
        filled.forEach(blockCache::evictFile); // their space may be written again
      }
      compactionEnded(failure, outputs, what);
    });
  }

  /** The work of a background job, run without the mutex; it lists every file it writes in {@code outputs}. */
  @FunctionalInterface
  private interface JobBody {
    void run(List<Long> outputs) throws IOException;
  }

  /** The end of a background job, run holding the mutex: {@code failure} is null if it succeeded. */
  @FunctionalInterface
  private interface JobEnd {
    void ended(IOException failure, List<Long> outputs);
  }

  /**
   * The one skeleton of every background job (flushes, compactions, node-tree jobs, min-max
   * sorts): runs {@code body} without the mutex, an unexpected runtime exception becoming an
   * {@link IOException} that names {@code what}; then, holding the mutex, releases the job's
   * outputs from the pending set, runs {@code end}, deletes the files that became obsolete,
   * schedules what is due next and wakes the threads waiting for background work. Called without
   * the mutex.
   */
  private void runJob(String what, JobBody body, JobEnd end) {
    List<Long> outputs = java.util.Collections.synchronizedList(new ArrayList<>());
    IOException failure = null;
    try {
      body.run(outputs);
    } catch (IOException e) {
      failure = e;
    } catch (RuntimeException e) {
      failure = new IOException(what + " failed unexpectedly", e);
    } finally {
      mutex.lock();
      try {
        pendingOutputs.removeAll(outputs);
        end.ended(failure, outputs);
        deleteObsoleteFilesLocked();
        maybeScheduleWork();
        backgroundDone.signalAll();
      } finally {
        mutex.unlock();
      }
    }
  }

  /**
   * Flushes the oldest immutable memtable into level 1 of the node tree: waits until the level-1
   * nodes it writes into are free and, if internal, not full, then appends (or merges) its records
   * into them.
   */
  private void flushNodeTreeInBackground() {
    Immutable imm;
    mutex.lock();
    try {
      imm = imms.peekFirst();
      if (imm == null || closing) {
        flushScheduled = false;
        return;
      }
    } finally {
      mutex.unlock();
    }
    NodeTree.Source source;
    try {
      source = NodeTree.Source.of(imm.table().iterator(), cmp.userComparator());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // a memtable iterator does no I/O
    }
    NodeJob job;
    long smallestSnapshot;
    long nextLog;
    mutex.lock();
    try {
      NodeJob picked;
      while ((picked = nodeTree.pickMemtableFlush(versions.current(), imm.table(), source, busyNodes)) == null) {
        if (closing) {
          flushScheduled = false;
          return;
        }
        maybeScheduleWork();
        try {
          backgroundDone.await(100, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          flushScheduled = false;
          return;
        }
      }
      busyNodes.addAll(picked.reserved());
      memtableFlushRunning = true;
      job = picked;
      smallestSnapshot = smallestSnapshot();
      nextLog = nextLogLocked();
    } finally {
      mutex.unlock();
    }
    List<Long> filled = java.util.Collections.synchronizedList(new ArrayList<>());
    runJob("memtable flush", outputs -> nodeTree.run(job, source, nextLog,
        new NodeTree.Io(smallestSnapshot, this::newOutputNumber, outputs, rateLimiter, filled)), (failure, outputs) -> {
          busyNodes.removeAll(job.reserved());
          memtableFlushRunning = false;
          if (failure != null) {
            filled.forEach(blockCache::evictFile); // their space may be written again
          }
          flushEnded(failure, outputs);
        });
  }

  /**
   * The oldest log still needed once the oldest immutable memtable is flushed: the next
   * immutable's, or the active memtable's. A later switch only adds newer logs. Holds {@code mutex}.
   */
  private long nextLogLocked() {
    return imms.size() > 1 ? new ArrayList<>(imms).get(1).logNumber() : memLogNumber;
  }

  /** The oldest immutable memtable, or null (the flush is then off) if none or the store closes. Holds {@code mutex}. */
  private Immutable flushCandidateLocked() {
    Immutable imm = imms.peekFirst();
    if (imm == null || closing) {
      flushScheduled = false;
      return null;
    }
    return imm;
  }

  /** After a flush: drops the memtable if it succeeded, else backs off for a retry. Holds {@code mutex}. */
  private void flushEnded(IOException failure, List<Long> outputs) {
    if (failure == null) {
      imms.pollFirst(); // after the flush's version was installed: a read that no longer sees the memtable finds its data there
      publishMemtables();
      retryNanos = 0;
      stats.flushes.increment();
    } else {
      failed("flush", failure, outputs, stats.flushFailures);
    }
    flushScheduled = false;
  }

  /**
   * After a failed job: counts it, logs it, deletes what it wrote and backs off before the retry.
   * Holds {@code mutex}.
   */
  private void failed(String what, IOException failure, List<Long> outputs, java.util.concurrent.atomic.LongAdder failures) {
    failures.increment();
    LOG.log(Level.WARNING, what + " failed; will retry: " + failure.getMessage(), failure);
    discard(outputs);
    backoff();
  }

  /** The leveled trees: flushes the oldest immutable memtable to a level-0 file. */
  private void flushInBackground() {
    flushOffMutex("flush", (imm, nextLog, smallestSnapshot, outputs) -> {
      long fileNumber = newOutputNumber();
      outputs.add(fileNumber);
      FileMeta meta = writer.write(fileNumber, TableCache.iterator(imm.table()), smallestSnapshot, false, rateLimiter);
      VersionEdit edit = new VersionEdit().logNumber(nextLog);
      if (meta != null) {
        edit.add(0, meta);
      }
      versions.logAndApply(edit);
      if (meta != null) {
        stats.flushBytes.add(meta.fileSize());
      }
    });
  }

  /**
   * tree=minmax: drains the oldest immutable memtable into the write cache and installs the
   * buckets it evicted; the memtable leaves the list once that is done (its log stays while the
   * cache holds its entries).
   */
  private void flushMinMaxInBackground() {
    flushOffMutex("min-max flush", (imm, nextLog, smallestSnapshot, outputs) -> minmax.drain(imm.table(), imm.logNumber(),
        nextLog, smallestSnapshot, this::newOutputNumber, outputs, rateLimiter));
  }

  /** tree=stack: flushes the oldest immutable memtable, merged with the runs the stack policy names. */
  private void flushStackInBackground() {
    flushOffMutex("stack flush", (imm, nextLog, smallestSnapshot, outputs) -> stack.flush(imm.table(), nextLog,
        smallestSnapshot, this::newOutputNumber, outputs, rateLimiter));
  }

  /** One flush of the oldest immutable memtable, done by a tree's executor. */
  @FunctionalInterface
  private interface FlushStep {
    void run(Immutable imm, long nextLog, long smallestSnapshot, List<Long> outputs) throws IOException;
  }

  /** Runs {@code step} on the oldest immutable memtable without the mutex, then ends the flush. */
  private void flushOffMutex(String what, FlushStep step) {
    Immutable imm;
    long smallestSnapshot;
    long nextLog;
    mutex.lock();
    try {
      imm = flushCandidateLocked();
      if (imm == null) {
        return;
      }
      smallestSnapshot = smallestSnapshot();
      nextLog = nextLogLocked();
    } finally {
      mutex.unlock();
    }
    runJob(what, outputs -> step.run(imm, nextLog, smallestSnapshot, outputs), this::flushEnded);
  }

  /** tree=minmax: starts a maintenance sort if one is due and none runs. Holds {@code mutex}. */
  private void scheduleMinMaxSort() {
    if (compactionsRunning > 0) {
      return;
    }
    List<FileMeta> inputs = minmax.planSort(versions.current());
    if (inputs.isEmpty()) {
      return;
    }
    compactionsRunning++;
    background.execute(() -> runJob("min-max sort", outputs -> {
      if (!closing) {
        minmax.sort(inputs, smallestSnapshotNow(), this::newOutputNumber, outputs, rateLimiter);
      }
    }, (failure, outputs) -> compactionEnded(failure, outputs, "min-max sort")));
  }

  /** Sleeps before retrying failed background work, doubling up to one second. Holds {@code mutex}. */
  private void backoff() {
    retryNanos = Math.min(TimeUnit.SECONDS.toNanos(1), Math.max(TimeUnit.MILLISECONDS.toNanos(10), retryNanos * 2));
    try {
      backgroundDone.await(retryNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void compactInBackground(CompactionPick pick) {
    long smallestSnapshot = smallestSnapshotNow();
    runJob("compaction", outputs -> {
      if (closing) {
        return;
      }
      VersionEdit edit = new VersionEdit();
      for (FileMeta f : pick.inputs()) {
        edit.remove(pick.level(), f.fileNumber());
      }
      for (FileMeta f : pick.nextLevelInputs()) {
        edit.remove(pick.outputLevel(), f.fileNumber());
      }
      if (pick.trivialMove()) {
        for (FileMeta f : pick.inputs()) {
          edit.add(pick.outputLevel(), f);
        }
        installCompaction(edit, pick, 0);
        stats.trivialMoves.increment();
        stats.moved(pick.outputLevel(), pick.inputBytes());
      } else {
        boolean bottom = isBottommost(pick);
        List<FileMeta> written = writer.compact(pick, smallestSnapshot, bottom, this::newOutputNumber, outputs, rateLimiter);
        for (FileMeta f : written) {
          edit.add(pick.outputLevel(), f);
        }
        installCompaction(edit, pick, written.stream().mapToLong(FileMeta::fileSize).sum());
        stats.compactions.increment();
        stats.compacted(pick.outputLevel(), pick.inputBytes(), written.stream().mapToLong(FileMeta::fileSize).sum());
      }
    }, (failure, outputs) -> {
      for (FileMeta f : pick.allInputs()) {
        busyFiles.remove(f.fileNumber());
      }
      if (failure == null && !pick.inputs().isEmpty()) {
        cursors[pick.level()] = pick.inputs().get(pick.inputs().size() - 1).largest();
      }
      compactionEnded(failure, outputs, "compaction");
    });
  }

  /**
   * After a compaction, node-tree job or min-max sort ended: frees its thread; after a failure
   * (unless the store closes), deletes what it wrote and backs off before the retry. Holds {@code
   * mutex}.
   */
  private void compactionEnded(IOException failure, List<Long> outputs, String what) {
    compactionsRunning--;
    if (failure != null && !closing) {
      failed(what, failure, outputs, stats.compactionFailures);
    }
  }

  /** Installs a compaction's edit; with tree=lsbm, with its buffered merge (the inputs of C_i kept as B_i+1). */
  private void installCompaction(VersionEdit edit, CompactionPick pick, long bytesWritten) throws IOException {
    if (lsbm != null) {
      edit.bufferChange(lsbm.plan(pick, edit, bytesWritten));
    }
    Version installed = versions.logAndApply(edit);
    if (lsbm != null) {
      lsbm.installed(installed);
    }
  }

  /**
   * Deletes the files a failed flush or compaction wrote, unless a failed manifest write may have
   * recorded them: then they stay until a new manifest is written, and the purge removes them.
   */
  private void discard(List<Long> outputs) {
    if (!versions.manifestUncertain()) {
      outputs.forEach(tables::discard);
    }
  }

  /**
   * A number for a new table file, registered as a pending output in the same step (no purge
   * deletes it, and later ones consider it), so a purge that sees the number allocated also sees
   * it pending.
   */
  private long newOutputNumber() {
    mutex.lock();
    try {
      long n = versions.newFileNumber();
      pendingOutputs.add(n);
      directory.tableMayExist(n);
      return n;
    } finally {
      mutex.unlock();
    }
  }

  /** Whether no level below the output holds keys in the compaction's range. */
  private boolean isBottommost(CompactionPick pick) {
    Version v = versions.current();
    byte[][] range = picker.userRange(pick.allInputs());
    for (int level = pick.outputLevel() + 1; level < v.numLevels(); level++) {
      if (!v.overlapping(level, range[0], range[1]).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------- files

  /**
   * What may be deleted, decided under {@code mutex}: table files outside {@code live}, logs below
   * the ones still needed, manifests other than the current one. Files numbered from {@code limit}
   * on were created afterwards and are never touched.
   */
  private record Obsolete(Set<Long> live, long logNumber, long manifest, long oldestImmLog, long memLog, long limit) {}

  private Obsolete obsoleteLocked() {
    Set<Long> live = versions.liveFiles();
    live.addAll(pendingOutputs);
    long oldestImmLog = imms.isEmpty() ? Long.MAX_VALUE : imms.peekFirst().logNumber();
    return new Obsolete(live, versions.logNumber(), versions.manifestNumber(), oldestImmLog, memLogNumber,
        versions.peekNextFileNumber());
  }

  /** Deletes obsolete files now (at open). */
  private void deleteObsoleteFiles() {
    Obsolete o;
    mutex.lock();
    try {
      o = obsoleteLocked();
    } finally {
      mutex.unlock();
    }
    purge(o);
  }

  /** Has obsolete files deleted in the background, soon. Called holding {@code mutex}. */
  private void deleteObsoleteFilesLocked() {
    if (closing) {
      return;
    }
    if (purgeScheduled) {
      purgeAgain = true;
      return;
    }
    purgeScheduled = true;
    purger.execute(this::purgeInBackground);
  }

  private void purgeInBackground() {
    while (true) {
      Obsolete o;
      mutex.lock();
      try {
        purgeAgain = false;
        o = obsoleteLocked();
      } finally {
        mutex.unlock();
      }
      purge(o);
      mutex.lock();
      try {
        if (!purgeAgain || closing) {
          purgeScheduled = false;
          backgroundDone.signalAll();
          return;
        }
      } finally {
        mutex.unlock();
      }
    }
  }

  /** Deletes table files no version needs, logs already flushed, and old manifests. */
  private void purge(Obsolete o) {
    if (versions.manifestUncertain()) {
      return; // a record that may be on disk could name any of them; wait for a new manifest
    }
    try {
      directory.tablesMayExist(o.live());
      directory.manifestMayExist(o.manifest());
      StoreDirectory.Names names = directory.forPurge();
      for (long table : names.tables()) {
        if (table < o.limit() && !o.live().contains(table)) {
          tables.evict(table);
          fs.delete(StoreFiles.table(dir, table));
          directory.forgetTable(table);
        }
      }
      for (long log : names.logs()) {
        if (log < o.limit() && log < o.logNumber() && log < o.oldestImmLog() && log != o.memLog()) {
          fs.delete(StoreFiles.log(dir, log));
          directory.forgetLog(log);
        }
      }
      for (long man : names.manifests()) {
        if (man < o.limit() && man != o.manifest()) {
          fs.delete(StoreFiles.manifest(dir, man));
          directory.forgetManifest(man);
        }
      }
    } catch (IOException e) {
      LOG.log(Level.WARNING, "could not delete obsolete files: " + e.getMessage(), e);
    }
  }

  private FileMeta writeLevel0(MemTable table) throws IOException {
    long fileNumber = versions.newFileNumber();
    FileMeta meta = writer.write(fileNumber, TableCache.iterator(table), Long.MAX_VALUE, false, null);
    if (meta != null) {
      stats.flushBytes.add(meta.fileSize());
      stats.flushes.increment();
    }
    return meta;
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
      Writer turn = new Writer(new WriteBatch(), false, mutex.newCondition());
      writers.addLast(turn);
      while (writers.peekFirst() != turn) {
        turn.cv.awaitUninterruptibly();
      }
      try {
        if (!mem.isEmpty()) {
          switchMemtable();
        }
      } finally {
        writers.pollFirst();
        if (!writers.isEmpty()) {
          writers.peekFirst().cv.signal();
        }
      }
      while (true) {
        ensureOpen();
        maybeScheduleWork();
        boolean pending = !imms.isEmpty() || flushScheduled || compactionsRunning > 0 || purgeScheduled
            || (nodeTree != null
                ? nodeTree.pick(versions.current(), busyNodes, true) != null
                : minmax != null ? !minmax.planSort(versions.current()).isEmpty()
                : stack == null && compactionPicker.pick(versions.current(), busyFiles, cursors) != null);
        if (!pending) {
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

  /** tree=stack: the policy's executor, or null for the other trees. */
  StackEngine stack() {
    return stack;
  }

  /** tree=minmax: the write cache and buckets, or null for the other trees. */
  MinMaxEngine minmax() {
    return minmax;
  }

  /** The node tree's executor, or null for a leveled tree. */
  NodeTree nodeTree() {
    return nodeTree;
  }

  /** Bytes of all live table files. */
  public long diskBytes() {
    Version v = versions.current();
    return v.allFiles().stream().mapToLong(FileMeta::fileSize).sum()
        + v.buffer().allFiles().stream().mapToLong(FileMeta::fileSize).sum();
  }

  /** Whether this is tree=lsbm with lsbm-levels=gear: level 2i − 1 holds C_i and level 2i holds C_i′. */
  boolean gearLevels() {
    return compactionPicker instanceof GearPicker;
  }

  /** tree=lsbm: the compaction buffer lists B_i of the current version (empty for the other trees). */
  public io.iam.core.tree.lsbm.CompactionBuffer compactionBuffer() {
    Version v = versions.current();
    return v.buffer() instanceof CompactionBuffer b ? b : CompactionBuffer.empty(cmp.userComparator(), v.numLevels());
  }

  /**
   * tree=lsbm: trims the compaction buffer now, as the background trim does every {@code
   * lsbm-trim-interval-ms}: removes buffer files with too few blocks cached (sparing those
   * appended since the previous trim). Returns the number of files removed; 0 for other trees.
   */
  public int trimCompactionBuffer() throws IOException {
    ensureOpen();
    if (lsbm == null) {
      return 0;
    }
    int removed = lsbm.trim();
    mutex.lock();
    try {
      deleteObsoleteFilesLocked();
    } finally {
      mutex.unlock();
    }
    return removed;
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
      long entries = 0;
      for (int level = 0; level < v.numLevels(); level++) {
        for (FileMeta f : v.files(level)) {
          entries += tables.verify(f);
        }
        KeyComparator user = cmp.userComparator();
        for (NodeMeta n : v.nodes(level)) {
          FileMeta f = n.file();
          if (f != null && (user.compare(InternalKey.userKey(f.smallest()), n.lo()) < 0
              || user.compare(InternalKey.userKey(f.largest()), n.hi()) > 0)) {
            throw new IOException("level " + level + ": " + n + " holds keys outside its range");
          }
        }
      }
      return entries;
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
    background.shutdown();
    flusher.shutdown();
    purger.shutdown();
    try {
      if (!background.awaitTermination(60, TimeUnit.SECONDS) || !flusher.awaitTermination(60, TimeUnit.SECONDS)
          || !purger.awaitTermination(60, TimeUnit.SECONDS)) {
        LOG.log(Level.WARNING, "background work did not stop within 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (nodeTree != null) {
      nodeTree.close();
    }
    if (lsbm != null) {
      lsbm.close();
    }
    try {
      if (wal != null) {
        wal.close();
        walFile.close();
      }
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

  static byte[] copy(byte[] b) {
    return Arrays.copyOf(b, b.length);
  }
}
