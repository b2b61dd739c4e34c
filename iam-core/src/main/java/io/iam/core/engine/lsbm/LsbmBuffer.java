package io.iam.core.engine.lsbm;

import io.iam.core.manifest.BufferDiff;

import io.iam.core.iter.ForwardingIterator;
import io.iam.core.cache.BlockCache;
import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.seam.TableCache;
import io.iam.core.tree.CompactionPick;
import io.iam.core.manifest.FileMeta;
import io.iam.core.tree.CompactionPicker;
import io.iam.core.tree.GearPicker;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionEdit;
import io.iam.core.manifest.VersionSet;
import io.iam.core.tree.lsbm.BufferChange;
import io.iam.core.manifest.BufferFile;
import io.iam.core.tree.lsbm.BufferedMerge;
import io.iam.core.tree.lsbm.CompactionBuffer;
import io.iam.core.manifest.KeyFilter;
import io.iam.core.tree.lsbm.LsbmConfig;
import io.iam.core.tree.lsbm.SourceIndex;
import io.iam.core.tree.lsbm.TrimPlanner;
import io.iam.core.util.DaemonThreads;
import java.io.IOException;
import java.lang.System.Logger.Level;
import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.KeyComparator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * tree=lsbm, the engine side of the compaction buffer (docs/lsbm.md): it attaches a buffer change
 * to each leveled compaction's edit, answers point reads through the buffer, and runs the trim on
 * its own thread every {@code lsbm-trim-interval-ms}. What to do is decided in {@link
 * io.iam.core.tree.lsbm}; this class only gathers the inputs (residency counts, block counts) and
 * does the reads and manifest writes.
 */
final class LsbmBuffer implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(LsbmBuffer.class.getName());

  private final VersionSet versions;
  private final TableCache tables;
  private final BlockCache cache;
  private final StoreCounters stats;
  private final LsbmConfig config;
  private final int interval;
  private final String name;
  private final Runnable afterTrim;
  /** The background trim; null until {@link #start}, or with no interval. Guarded by this. */
  private ScheduledExecutorService trimmer;
  /** The buffer's epoch at the previous trim: files appended since are spared once. Guarded by this. */
  private long lastTrimEpoch;

  /**
   * @param levels the store's levels, level 0 included
   * @param afterTrim called after a trim removed files (the store schedules their deletion)
   */
  LsbmBuffer(VersionSet versions, TableCache tables, BlockCache cache, StoreCounters stats, CompactionPicker picker,
      int levels, LsbmSettings settings, String name, Runnable afterTrim) {
    this.versions = versions;
    this.tables = tables;
    this.cache = cache;
    this.stats = stats;
    long[] targets = new long[levels];
    for (int level = 1; level < targets.length; level++) {
      targets[level] = picker.maxBytes(level);
    }
    this.config = new LsbmConfig(targets, settings.bufferFraction(), settings.freezeShrink(), settings.trimThreshold(),
        picker instanceof GearPicker);
    this.interval = settings.trimIntervalMs();
    this.name = name;
    this.afterTrim = afterTrim;
  }

  /**
   * Starts the background trim, every {@code lsbm-trim-interval-ms} (none if 0). Called once the
   * store is open: a trim removes files and has them purged, which must not run while recovery
   * writes files no version lists yet (the recovered buffer is not empty).
   */
  synchronized void start() {
    if (interval == 0 || trimmer != null) {
      return;
    }
    trimmer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("iam-lsbm-trim-" + name + "-"));
    trimmer.scheduleWithFixedDelay(() -> {
      try {
        if (trim() > 0) {
          afterTrim.run();
        }
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.WARNING, "compaction buffer trim failed; will retry: " + e.getMessage(), e);
      }
    }, interval, interval, TimeUnit.MILLISECONDS);
  }

  /**
   * The buffer change of a compaction about to be installed: its inputs (both levels) with their
   * Bloom filters, and the files it wrote ({@code edit}'s additions).
   */
  BufferChange plan(CompactionPick pick, VersionEdit edit, long bytesWritten) throws IOException {
    if (config.gear() && pick.trivialMove() && pick.level() >= 1 && GearPicker.isOutHalf(pick.outputLevel())) {
      return BufferChange.shift(pick.level(), pick.inputs(), config); // C_i becomes C_i′, and B_i becomes B_i′
    }
    boolean merged = !pick.trivialMove();
    Map<Long, KeyFilter> filters = new HashMap<>();
    if (merged) {
      for (FileMeta f : pick.allInputs()) {
        filters.put(f.fileNumber(), tables.filter(f));
      }
    }
    List<FileMeta> outputs = edit.added().stream().map(VersionEdit.LevelFile::file).toList();
    return BufferedMerge.plan(pick.level(), pick.inputs(), pick.nextLevelInputs(), merged ? outputs : List.of(), merged,
        filters, merged ? pick.inputBytes() : 0, bytesWritten, config);
  }

  /** Counts what the edit that produced {@code installed} did to the buffer. */
  void installed(Version installed) {
    CompactionBuffer.Outcome o = CompactionBuffer.of(installed).outcome();
    stats.bufferAppends.add(o.appended());
    stats.bufferFrozenMerges.add(o.frozenMerges());
    stats.bufferRetired.add(o.retired());
    stats.bufferPaced.add(o.paced());
    stats.bufferTrimmed.add(o.trimmed());
  }

  /**
   * The paper's Algorithm 3 at one level i ≥ 1, for a read of the latest data: {@code f} is the
   * file of C_i covering the key. If the buffer knows the files {@code f} was merged from, and
   * {@code f}'s Bloom filters admit the key (no block read), the key is looked up in those files
   * instead, newest data first ({@link #resolve}); otherwise {@code f} is read. Returns the
   * level's answer: the version found, or null if the level holds none.
   */
  TableCache.Found get(Version v, FileMeta f, byte[] key, byte[] seek, long sequence) throws IOException {
    SourceIndex sources = CompactionBuffer.of(v).sourceIndex(f.fileNumber());
    if (sources == null) {
      return tables.get(f, seek, key);
    }
    if (!tables.mayContain(f, key)) { // most levels of a read hold no version of the key: ruled out before the walk
      return null;
    }
    stats.bufferLookups.increment();
    TableCache.Found found = resolve(f, sources.covering(key), key, seek);
    if (found != null && found.sequence() > sequence) {
      return tables.get(f, seek, key); // cannot happen: buffer files are older than the files of the pinned version
    }
    return found;
  }

  /**
   * {@code x}'s version of {@code key}, read from the files it was merged from ({@code covering},
   * those whose range covers the key) where the buffer still has them: they are walked newest
   * data first (CompactionBuffer's invariant), skipping those whose Bloom filters rule the key
   * out, and each is itself resolved through its own sources. A removed source that may hold the
   * key sends the read to {@code x} itself.
   */
  private TableCache.Found resolve(FileMeta x, SourceIndex.Source[] covering, byte[] key, byte[] seek)
      throws IOException {
    for (SourceIndex.Source s : covering) {
      if (!s.file().filter().mayContain(key)) {
        continue;
      }
      if (!s.present()) {
        stats.bufferFallbacks.increment();
        return tables.get(x, seek, key);
      }
      SourceIndex deeper = s.sources();
      TableCache.Found found = deeper == null
          ? tables.getAdmitted(s.file().file(), seek, key)
          : resolve(s.file().file(), deeper.covering(key), key, seek);
      if (found != null) {
        if (deeper == null) {
          stats.bufferHits.increment();
        }
        return found;
      }
    }
    return null;
  }

  /**
   * The paper's Algorithm 4 for one level i ≥ 1 of a scan of the latest data: an iterator over
   * the level's files in which each file whose sources are all still in the buffer is read from
   * them instead (their cached blocks), each source limited to the key range it answers for. The
   * sources hold, for every key, the file's version as their newest one (CompactionBuffer's
   * invariant), so the store's iterator, which takes each key's newest version, sees what the file
   * holds. A file with a removed source is read itself: a removed file's Bloom filters cannot rule
   * out a range.
   */
  InternalIterator levelIterator(Version v, List<FileMeta> files) {
    CompactionBuffer buffer = CompactionBuffer.of(v);
    return tables.levelIterator(files, f -> {
      List<BufferFile> sources = buffer.sources(f.fileNumber());
      if (sources.isEmpty() || !sources.stream().allMatch(b -> buffer.contains(b.fileNumber()))) {
        return tables.iterator(f);
      }
      stats.bufferScans.increment();
      List<InternalIterator> children = new ArrayList<>();
      try {
        for (BufferFile b : sources) {
          children.add(new Clipped(tables.iterator(b.file()), b.lo(), b.hi(), buffer.userComparator()));
        }
      } catch (IOException | RuntimeException e) {
        for (InternalIterator c : children) {
          c.close();
        }
        throw e;
      }
      return tables.merged(children);
    });
  }

  /** A view of an iterator limited to the user keys [lo, hi], both inclusive; closing it closes the source. */
  private static final class Clipped extends ForwardingIterator {
    private final byte[] lo;
    private final byte[] hi;
    private final KeyComparator user;

    Clipped(InternalIterator source, byte[] lo, byte[] hi, KeyComparator user) {
      super(source);
      this.lo = lo;
      this.hi = hi;
      this.user = user;
    }

    @Override
    public boolean valid() {
      if (!delegate.valid()) {
        return false;
      }
      byte[] k = delegate.key();
      return user.compare(k, 0, InternalKey.userKeyLength(k.length), hi, 0, hi.length) <= 0;
    }

    @Override
    public void seekToFirst() throws IOException {
      delegate.seek(InternalKey.seekKey(lo, InternalKey.MAX_SEQUENCE));
    }

    @Override
    public void seek(byte[] internalKey) throws IOException {
      if (user.compare(internalKey, 0, InternalKey.userKeyLength(internalKey.length), lo, 0, lo.length) < 0) {
        seekToFirst();
      } else {
        delegate.seek(internalKey);
      }
    }
  }

  /**
   * One trim (Algorithm 2): removes the buffer files whose cached fraction of blocks is under
   * {@code lsbm-trim-threshold}, sparing those appended since the previous trim. Returns the
   * number removed.
   */
  synchronized int trim() throws IOException {
    Version v = versions.pinCurrent();
    try {
      CompactionBuffer buffer = CompactionBuffer.of(v);
      Map<Long, TrimPlanner.Residency> residency = new HashMap<>();
      for (FileMeta f : buffer.allFiles()) {
        residency.put(f.fileNumber(), new TrimPlanner.Residency(cache.residentBlocks(f.fileNumber()), tables.blockCount(f)));
      }
      List<BufferDiff.Removal> removals = TrimPlanner.plan(buffer, residency, lastTrimEpoch, config.trimThreshold());
      lastTrimEpoch = buffer.epoch();
      stats.bufferTrims.increment();
      if (removals.isEmpty()) {
        return 0;
      }
      Version next = versions.logAndApply(new VersionEdit().bufferChange(BufferChange.removing(removals, config)));
      installed(next);
      return CompactionBuffer.of(next).outcome().trimmed();
    } finally {
      v.unref();
    }
  }

  /** Stops the trim thread; called before the manifest closes. */
  @Override
  public void close() {
    ScheduledExecutorService trimmer;
    synchronized (this) {
      trimmer = this.trimmer;
    }
    if (trimmer == null) {
      return;
    }
    trimmer.shutdown();
    try {
      if (!trimmer.awaitTermination(60, TimeUnit.SECONDS)) {
        LOG.log(Level.WARNING, "compaction buffer trim did not stop within 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
