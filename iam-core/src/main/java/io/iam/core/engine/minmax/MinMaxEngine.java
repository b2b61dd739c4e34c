package io.iam.core.engine.minmax;

import io.iam.core.iter.MergingIterator;
import com.google.common.util.concurrent.RateLimiter;
import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.memtable.Lookup;
import io.iam.core.memtable.MemIterator;
import io.iam.core.memtable.MemTable;
import io.iam.core.minmax.IntervalBTree;
import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.seam.StoreParts;
import io.iam.core.engine.seam.TableCache;
import io.iam.core.engine.seam.TableWriter;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionEdit;
import io.iam.core.manifest.VersionSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * tree=minmax, the engine side of Min-Max (docs/minmax.md): flushed memtables are drained, in
 * arrival (sequence) order, into a {@link MinMaxWriteCache}; each window the cache evicts is
 * written once as a bucket, an MSTable file on level 0, and never merged again (unless the
 * optional maintenance sort is on). Reads look at the cache and at the buckets the version's
 * IB-tree ({@link BucketIndex}) finds, and keep the newest version.
 *
 * <pre>
 *  memtable ──flush──▶ write cache (B entries, sorted)  ──evict smallest max−min window──▶ bucket
 *  (WAL kept while    │ windows by span: [k3 … k5] 2 ◀ best                              (L0 file,
 *   the cache holds   │              [k5 … k9] 4                                       in manifest)
 *   its entries)      ▼                                                                  │
 *  reads: memtables → cache (ticket) → IB-tree stab / overlap → buckets, newest sequence wins
 * </pre>
 *
 * <p>Durability: a drained memtable's log stays until none of its entries is only in the cache
 * (each install records the oldest such log as the manifest's log number, and the sequence below
 * which everything is in buckets). Recovery replays those logs into memtables that are drained
 * again; entries a bucket already holds are skipped. If the cache pins more than {@link
 * #MAX_PINNED_LOGS} logs, the most compact window holding its oldest entry is evicted early.
 *
 * <p>Threads: {@link #drain} runs on the store's flush thread, {@link #sort} on a compaction
 * thread (one at a time), reads on any thread.
 */
public final class MinMaxEngine {

  /**
   * Logs the cache may pin before its oldest entry is evicted early: a key that never lands in a
   * compact window (an outlier far from its neighbours) would otherwise keep every log since it
   * was written. 8 memtables of logs is 1 GiB at the default memtable-size of 128 MiB.
   */
  static final int MAX_PINNED_LOGS = 8;

  private final VersionSet versions;
  private final TableCache tables;
  private final TableWriter writer;
  private final StoreCounters stats;
  private final InternalKeyComparator cmp;
  private final MinMaxWriteCache cache;
  private final BucketIndex index;
  private final int sortOverlap;
  /** Windows evicted but not yet installed (a failed install leaves them here). Flush thread only. */
  private final List<List<byte[]>> pending = new ArrayList<>();
  /** Buckets with sequences up to this may hold a replayed entry; -1 until the first drain. Flush thread only. */
  private long replayCheckUpTo = -1;

  MinMaxEngine(StoreParts parts, MinMaxSettings settings) {
    this.versions = parts.versions();
    this.tables = parts.tables();
    this.writer = parts.writer();
    this.stats = parts.stats();
    this.cmp = parts.cmp();
    this.cache = new MinMaxWriteCache(settings.cacheEntries(), settings.window(),
        cmp, versions.flushedSequence());
    this.index = new BucketIndex(cmp.userComparator());
    this.sortOverlap = settings.sortOverlap();
  }

  // ---------------------------------------------------------------- writes

  /**
   * Drains one flushed memtable into the cache and installs every bucket that evicted, with the
   * oldest log still needed ({@code nextLog} if the cache pins none). Idempotent: after a failure
   * the same memtable is drained again and only the missing steps are redone.
   *
   * @param log the log the memtable's writes are in
   * @param nextLog the log of the next memtable (the oldest one needed once the cache is empty)
   */
  void drain(MemTable table, long log, long nextLog, long smallestSnapshot, LongSupplier newOutputNumber,
      List<Long> outputs, RateLimiter limiter) throws IOException {
    if (replayCheckUpTo < 0) {
      replayCheckUpTo = versions.current().files(0).stream().mapToLong(FileMeta::largestSequence).max().orElse(0);
    }
    if (table.largestSequence() > cache.drainedUpTo()) {
      cache.noteLog(table.smallestSequence(), log);
      List<byte[][]> arrivals = new ArrayList<>();
      MemIterator it = table.iterator();
      for (it.seekToFirst(); it.valid(); it.next()) {
        if (InternalKey.sequence(it.key()) > cache.drainedUpTo()) {
          arrivals.add(new byte[][] {it.key(), it.value()});
        }
      }
      arrivals.sort(Comparator.comparingLong(e -> InternalKey.sequence(e[0]))); // the paper's arrival order
      for (byte[][] e : arrivals) {
        if (InternalKey.sequence(e[0]) <= replayCheckUpTo && inBucket(e[0])) {
          continue; // replayed from a log, but evicted before the crash
        }
        List<byte[]> evicted = cache.add(e[0], e[1]);
        if (!evicted.isEmpty()) {
          pending.add(evicted);
        }
      }
      while (cache.pinnedLogs() > MAX_PINNED_LOGS) {
        pending.add(cache.evictOldest());
        stats.minmaxForcedEvictions.increment();
      }
    }
    install(nextLog, smallestSnapshot, newOutputNumber, outputs, limiter);
  }

  /** Whether a bucket of the current version holds exactly this internal key (same sequence). */
  private boolean inBucket(byte[] internalKey) throws IOException {
    byte[] user = InternalKey.userKey(internalKey);
    long seq = InternalKey.sequence(internalKey);
    byte[] seek = InternalKey.seekKey(user, seq);
    for (FileMeta f : index.stab(versions.current(), user)) {
      if (f.smallestSequence() <= seq && seq <= f.largestSequence()) {
        TableCache.Found found = tables.get(f, seek, user);
        if (found != null && found.sequence() == seq) {
          return true;
        }
      }
    }
    return false;
  }

  /** Writes the pending windows as buckets and installs them in one edit. */
  private void install(long nextLog, long smallestSnapshot, LongSupplier newOutputNumber, List<Long> outputs,
      RateLimiter limiter) throws IOException {
    if (pending.isEmpty()) {
      return;
    }
    VersionEdit edit = new VersionEdit();
    List<FileMeta> written = new ArrayList<>();
    for (List<byte[]> window : pending) {
      MemTable run = new MemTable(cmp);
      for (byte[] k : window) {
        byte[] user = InternalKey.userKey(k);
        long seq = InternalKey.sequence(k);
        Lookup l = cache.visible().get(user, seq); // the entry itself: evicted entries stay visible until installed
        if (l.sequence() != seq) {
          throw new IllegalStateException("evicted entry " + seq + " is no longer in the cache");
        }
        run.add(seq, InternalKey.type(k), user, l.isFound() ? l.value() : null);
      }
      long number = newOutputNumber.getAsLong();
      outputs.add(number);
      FileMeta meta = writer.write(number, TableCache.iterator(run), smallestSnapshot, false, limiter);
      if (meta != null) {
        edit.add(0, meta);
        written.add(meta);
      }
    }
    long oldest = cache.oldestSequence();
    edit.logNumber(cache.oldestLog(nextLog));
    edit.flushedSequence(oldest < 0 ? cache.drainedUpTo() : oldest - 1);
    versions.logAndApply(edit);
    List<byte[]> keys = new ArrayList<>();
    pending.forEach(keys::addAll);
    pending.clear();
    cache.installed(keys);
    for (FileMeta f : written) {
      stats.minmaxBuckets.increment();
      stats.minmaxBucketBytes.add(f.fileSize());
      stats.flushBytes.add(f.fileSize());
    }
  }

  // ---------------------------------------------------------------- maintenance

  /** The buckets a maintenance sort would merge now: those holding the key most buckets hold, if more than d; else empty. */
  List<FileMeta> planSort(Version v) {
    if (sortOverlap == 0) {
      return List.of();
    }
    IntervalBTree.Depth<byte[]> deepest = index.deepest(v);
    return deepest.count() <= sortOverlap ? List.of() : index.stab(v, deepest.at());
  }

  /**
   * Merges {@code inputs} (from {@link #planSort}) into buckets cut at about the largest input's
   * size, holding the newest versions (tombstones kept: other buckets may hold older versions).
   */
  void sort(List<FileMeta> inputs, long smallestSnapshot, LongSupplier newOutputNumber, List<Long> outputs,
      RateLimiter limiter) throws IOException {
    List<InternalIterator> children = new ArrayList<>();
    for (FileMeta f : inputs) {
      children.add(tables.uncachedIterator(f));
    }
    long cut = inputs.stream().mapToLong(FileMeta::fileSize).max().orElse(1);
    List<FileMeta> out;
    try (MergingIterator merged = new MergingIterator(cmp, children)) {
      merged.seekToFirst();
      out = writer.writeNodes(merged, smallestSnapshot, false, newOutputNumber, cut, 0, outputs, limiter, false, null);
    }
    VersionEdit edit = new VersionEdit();
    inputs.forEach(f -> edit.remove(0, f.fileNumber()));
    out.forEach(f -> edit.add(0, f));
    versions.logAndApply(edit);
    stats.minmaxSorts.increment();
    stats.compacted(0, inputs.stream().mapToLong(FileMeta::fileSize).sum(), out.stream().mapToLong(FileMeta::fileSize).sum());
  }

  // ---------------------------------------------------------------- reads

  /** A reader's ticket: take it before pinning the version it reads (see {@link MinMaxWriteCache}). */
  long openRead() {
    return cache.openRead();
  }

  void closeRead(long ticket) {
    cache.closeRead(ticket);
  }

  /**
   * The value of {@code key} at {@code sequence} in the cache and the buckets of {@code v} (the
   * memtables, which are newer, have been searched): the version with the largest sequence wins.
   */
  byte[] get(Version v, byte[] key, long sequence) throws IOException {
    Lookup cached = cache.visible().get(key, sequence);
    long best = cached.isAbsent() ? -1 : cached.sequence();
    byte[] value = cached.isFound() ? cached.value().clone() : null;
    byte[] seek = InternalKey.seekKey(key, Math.min(sequence, InternalKey.MAX_SEQUENCE));
    stats.minmaxPointReads.increment();
    for (FileMeta f : index.stab(v, key)) {
      if (f.largestSequence() <= best || f.smallestSequence() > sequence) {
        continue; // holds nothing newer than what was found, or only versions this read must not see
      }
      stats.minmaxPointBuckets.increment();
      TableCache.Found found = tables.get(f, seek, key);
      if (found != null && found.sequence() > best) {
        best = found.sequence();
        value = found.value();
      }
    }
    return value;
  }

  /** The cache as an iterator child (weakly consistent; the reader's ticket keeps evicted entries in it). */
  InternalIterator cacheIterator() {
    return cache.visible().iterator();
  }

  /** Counts a seek (a range read); the buckets it reads are counted as the bucket iterator opens them. */
  void countSeek() {
    stats.minmaxRangeReads.increment();
  }

  /**
   * The buckets of {@code v} as one iterator child that opens a bucket only when a scan reaches it
   * (bounded by {@code upperBound}, null for none: buckets starting at or after it are left out).
   */
  InternalIterator bucketIterator(Version v, byte[] upperBound) {
    List<FileMeta> buckets = upperBound == null ? v.files(0) : index.from(v, null, upperBound);
    return new BucketIterator(cmp, buckets, user -> index.stab(v, user), tables::iterator, stats.minmaxRangeBuckets::add);
  }

  // ---------------------------------------------------------------- introspection

  /** Entries in the write cache. */
  public int cachedEntries() {
    return cache.size();
  }

  /** The most buckets of the current version that share one key. */
  public int maxOverlap() {
    return index.deepest(versions.current()).count();
  }

  /**
   * The user keys of each bucket of the current version, read from its file, buckets in the order
   * they were written (file number): for tests and pictures.
   */
  List<List<byte[]>> bucketKeys() throws IOException {
    List<FileMeta> files = new ArrayList<>(versions.current().files(0));
    files.sort(Comparator.comparingLong(FileMeta::fileNumber));
    List<List<byte[]>> out = new ArrayList<>();
    for (FileMeta f : files) {
      List<byte[]> keys = new ArrayList<>();
      try (InternalIterator it = tables.iterator(f)) {
        for (it.seekToFirst(); it.valid(); it.next()) {
          keys.add(InternalKey.userKey(it.key()));
        }
      }
      out.add(keys);
    }
    return out;
  }
}
