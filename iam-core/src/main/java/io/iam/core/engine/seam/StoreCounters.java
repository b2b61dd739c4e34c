package io.iam.core.engine.seam;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of one open store that its parts bump as they work: the write path, the table
 * reads, flushes and compactions (per output level), and each tree's own events. Every counter is
 * thread-safe and cheap to bump; nothing here is ever reset. The store's public {@code Statistics}
 * reads them (with the write stalls, which only the store counts); a tree bumps the ones it owns.
 */
public final class StoreCounters {

  public final LongAdder userBytes = new LongAdder();
  public final LongAdder userWrites = new LongAdder();
  public final LongAdder walBytes = new LongAdder();
  public final LongAdder walSyncs = new LongAdder();
  public final LongAdder flushBytes = new LongAdder();
  public final LongAdder flushes = new LongAdder();
  public final LongAdder flushFailures = new LongAdder();
  public final LongAdder compactions = new LongAdder();
  public final LongAdder trivialMoves = new LongAdder();
  public final LongAdder compactionFailures = new LongAdder();
  /** How long memtable flushes waited for the tree to make room before they could start. */
  public final LongAdder flushWaitNanos = new LongAdder();
  public final LongAdder slowdownNanos = new LongAdder();
  public final LongAdder bloomUseful = new LongAdder();
  public final LongAdder bloomChecked = new LongAdder();
  public final LongAdder bloomFalsePositive = new LongAdder();
  public final LongAdder gets = new LongAdder();
  public final LongAdder scans = new LongAdder();
  public final LongAdder scanSequences = new LongAdder();
  public final LongAdder scanUncachedSequences = new LongAdder();
  public final LongAccumulator scanMaxUncachedPerLevel =
      new LongAccumulator(Math::max, 0);
  public final LongAdder nodeAppends = new LongAdder();
  public final LongAdder nodeMerges = new LongAdder();
  public final LongAdder nodeCuts = new LongAdder();
  public final LongAdder nodeSplits = new LongAdder();
  public final LongAdder nodeMoves = new LongAdder();
  /** Moves into a level whose cap the node's sequences pass, made without a rewrite (the cache had room). */
  public final LongAdder nodeMovesKept = new LongAdder();
  /** Moves into a level whose cap the node's sequences pass, made by rewriting them as one. */
  public final LongAdder nodeMovesRewritten = new LongAdder();
  public final LongAdder nodeCombines = new LongAdder();
  public final LongAdder levelsAdded = new LongAdder();
  /** tree=lsbm: point reads that consulted a compaction buffer list, and those it answered. */
  public final LongAdder bufferLookups = new LongAdder();
  public final LongAdder bufferHits = new LongAdder();
  /** tree=lsbm: buffered reads that met a removed source that may hold the key, and read the level's file. */
  public final LongAdder bufferFallbacks = new LongAdder();
  /** tree=lsbm: files of a level that scans read from their sources in the buffer. */
  public final LongAdder bufferScans = new LongAdder();
  /** tree=lsbm: files appended to the buffer, merges into a frozen list, files retired once no sources list refers to them, by the pace, by trims; trim runs. */
  public final LongAdder bufferAppends = new LongAdder();
  public final LongAdder bufferFrozenMerges = new LongAdder();
  public final LongAdder bufferRetired = new LongAdder();
  public final LongAdder bufferPaced = new LongAdder();
  public final LongAdder bufferTrimmed = new LongAdder();
  public final LongAdder bufferTrims = new LongAdder();
  /** tree=minmax: buckets (and their bytes) written by evictions, windows evicted early to free an old log, maintenance sorts. */
  public final LongAdder minmaxBuckets = new LongAdder();
  public final LongAdder minmaxBucketBytes = new LongAdder();
  public final LongAdder minmaxForcedEvictions = new LongAdder();
  public final LongAdder minmaxSorts = new LongAdder();
  /** tree=minmax: point reads that reached the buckets, and the buckets they read (IB-tree stabbing hits). */
  public final LongAdder minmaxPointReads = new LongAdder();
  public final LongAdder minmaxPointBuckets = new LongAdder();
  /** tree=minmax: iterator seeks, and the buckets each meets from its key on (IB-tree overlap hits). */
  public final LongAdder minmaxRangeReads = new LongAdder();
  public final LongAdder minmaxRangeBuckets = new LongAdder();
  /** tree=stack: flushes merged with on-disk runs, the runs they read, and the entries read and written by all flushes. */
  public final LongAdder stackMerges = new LongAdder();
  public final LongAdder stackRunsMerged = new LongAdder();
  public final LongAdder stackEntriesRead = new LongAdder();
  public final LongAdder stackEntriesWritten = new LongAdder();
  /** Node-tree background jobs started while another background job was running. */
  public final LongAdder parallelJobs = new LongAdder();
  private final LongAdder[] compactionRead;
  private final LongAdder[] compactionWritten;
  private final LongAdder[] movedBytes;
  /** Per level, the most uncached sequences one scan found there. */
  private final LongAccumulator[] scanMaxUncachedAtLevel;

  /** Counters for a store of {@code levels} levels, level 0 included. */
  public StoreCounters(int levels) {
    compactionRead = adders(levels);
    compactionWritten = adders(levels);
    movedBytes = adders(levels);
    scanMaxUncachedAtLevel = new LongAccumulator[levels];
    for (int i = 0; i < levels; i++) {
      scanMaxUncachedAtLevel[i] = new LongAccumulator(Math::max, 0);
    }
  }

  /** {@code n} fresh adders, for counters kept per level, per cause or per bound. */
  public static LongAdder[] adders(int n) {
    LongAdder[] a = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  /** Records that one scan found {@code uncached} uncached sequences on {@code level}. */
  public void scanUncachedAt(int level, long uncached) {
    scanMaxUncachedPerLevel.accumulate(uncached);
    if (level < scanMaxUncachedAtLevel.length) {
      scanMaxUncachedAtLevel[level].accumulate(uncached);
    }
  }

  /** Records a flush or compaction into {@code outputLevel} that read {@code read} and wrote {@code written} bytes. */
  public void compacted(int outputLevel, long read, long written) {
    compactionRead[outputLevel].add(read);
    compactionWritten[outputLevel].add(written);
  }

  /** Records {@code bytes} moved into {@code outputLevel} by a manifest edit alone (not rewritten). */
  public void moved(int outputLevel, long bytes) {
    movedBytes[outputLevel].add(bytes);
  }

  /** The number of levels counted, level 0 included. */
  public int levels() {
    return compactionWritten.length;
  }

  /** The most uncached sequences one scan found on {@code level}. */
  public long scanMaxUncachedAt(int level) {
    return scanMaxUncachedAtLevel[level].get();
  }

  /** Bytes compactions wrote into {@code level}. */
  public long compactionBytesWritten(int level) {
    return compactionWritten[level].sum();
  }

  /** Bytes compactions read to produce output in {@code level}. */
  public long compactionBytesRead(int level) {
    return compactionRead[level].sum();
  }

  /** Bytes moved into {@code level} by manifest edits alone. */
  public long movedBytes(int level) {
    return movedBytes[level].sum();
  }
}
