package io.iam.core.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of a store since it was opened: what users wrote, what the log, flushes and
 * compactions wrote (per output level), stalls, and the Bloom filters' usefulness. All counters
 * are thread-safe and cheap to bump. Write amplification follows the IAM paper: bytes written to
 * table files (flushes + compactions) ÷ bytes users wrote, the log excluded; a second figure
 * includes the log.
 */
public final class Statistics {

  final LongAdder userBytes = new LongAdder();
  final LongAdder userWrites = new LongAdder();
  final LongAdder walBytes = new LongAdder();
  final LongAdder walSyncs = new LongAdder();
  final LongAdder flushBytes = new LongAdder();
  final LongAdder flushes = new LongAdder();
  final LongAdder flushFailures = new LongAdder();
  final LongAdder compactions = new LongAdder();
  final LongAdder trivialMoves = new LongAdder();
  final LongAdder compactionFailures = new LongAdder();
  final LongAdder stallNanos = new LongAdder();
  private final LongAdder[] stallNanosBy = newAdders(StallCause.values().length);
  /** How long memtable flushes waited for the tree to make room before they could start. */
  final LongAdder flushWaitNanos = new LongAdder();
  final LongAdder slowdownNanos = new LongAdder();
  final LongAdder bloomUseful = new LongAdder();
  final LongAdder bloomChecked = new LongAdder();
  final LongAdder bloomFalsePositive = new LongAdder();
  final LongAdder gets = new LongAdder();
  final LongAdder scans = new LongAdder();
  final LongAdder scanSequences = new LongAdder();
  final LongAdder scanUncachedSequences = new LongAdder();
  final java.util.concurrent.atomic.LongAccumulator scanMaxUncachedPerLevel =
      new java.util.concurrent.atomic.LongAccumulator(Math::max, 0);
  final LongAdder nodeAppends = new LongAdder();
  final LongAdder nodeMerges = new LongAdder();
  final LongAdder nodeCuts = new LongAdder();
  final LongAdder nodeSplits = new LongAdder();
  final LongAdder nodeMoves = new LongAdder();
  /** Moves into a level whose cap the node's sequences pass, made without a rewrite (the cache had room). */
  final LongAdder nodeMovesKept = new LongAdder();
  /** Moves into a level whose cap the node's sequences pass, made by rewriting them as one. */
  final LongAdder nodeMovesRewritten = new LongAdder();
  final LongAdder nodeCombines = new LongAdder();
  final LongAdder levelsAdded = new LongAdder();
  /** tree=lsbm: point reads that consulted a compaction buffer list, and those it answered. */
  final LongAdder bufferLookups = new LongAdder();
  final LongAdder bufferHits = new LongAdder();
  /** tree=lsbm: buffered reads that met a removed source that may hold the key, and read the level's file. */
  final LongAdder bufferFallbacks = new LongAdder();
  /** tree=lsbm: files of a level that scans read from their sources in the buffer. */
  final LongAdder bufferScans = new LongAdder();
  /** tree=lsbm: files appended to the buffer, merges into a frozen list, files retired once no sources list refers to them, by the pace, by trims; trim runs. */
  final LongAdder bufferAppends = new LongAdder();
  final LongAdder bufferFrozenMerges = new LongAdder();
  final LongAdder bufferRetired = new LongAdder();
  final LongAdder bufferPaced = new LongAdder();
  final LongAdder bufferTrimmed = new LongAdder();
  final LongAdder bufferTrims = new LongAdder();
  /** tree=minmax: buckets (and their bytes) written by evictions, windows evicted early to free an old log, maintenance sorts. */
  final LongAdder minmaxBuckets = new LongAdder();
  final LongAdder minmaxBucketBytes = new LongAdder();
  final LongAdder minmaxForcedEvictions = new LongAdder();
  final LongAdder minmaxSorts = new LongAdder();
  /** tree=minmax: point reads that reached the buckets, and the buckets they read (IB-tree stabbing hits). */
  final LongAdder minmaxPointReads = new LongAdder();
  final LongAdder minmaxPointBuckets = new LongAdder();
  /** tree=minmax: iterator seeks, and the buckets each meets from its key on (IB-tree overlap hits). */
  final LongAdder minmaxRangeReads = new LongAdder();
  final LongAdder minmaxRangeBuckets = new LongAdder();
  /** tree=stack: flushes merged with on-disk runs, the runs they read, and the entries read and written by all flushes. */
  final LongAdder stackMerges = new LongAdder();
  final LongAdder stackRunsMerged = new LongAdder();
  final LongAdder stackEntriesRead = new LongAdder();
  final LongAdder stackEntriesWritten = new LongAdder();
  /** Node-tree background jobs started while another background job was running. */
  final LongAdder parallelJobs = new LongAdder();
  private final LongAdder[] compactionRead;
  private final LongAdder[] compactionWritten;
  private final LongAdder[] movedBytes;
  /** Per level, the most uncached sequences one scan found there. */
  private final java.util.concurrent.atomic.LongAccumulator[] scanMaxUncachedAtLevel;

  Statistics(int levels) {
    compactionRead = adders(levels);
    compactionWritten = adders(levels);
    movedBytes = adders(levels);
    scanMaxUncachedAtLevel = new java.util.concurrent.atomic.LongAccumulator[levels];
    for (int i = 0; i < levels; i++) {
      scanMaxUncachedAtLevel[i] = new java.util.concurrent.atomic.LongAccumulator(Math::max, 0);
    }
  }

  /** Records that one scan found {@code uncached} uncached sequences on {@code level}. */
  void scanUncachedAt(int level, long uncached) {
    scanMaxUncachedPerLevel.accumulate(uncached);
    if (level < scanMaxUncachedAtLevel.length) {
      scanMaxUncachedAtLevel[level].accumulate(uncached);
    }
  }

  /** The most uncached sequences one scan found on {@code level}. */
  public long scanMaxUncachedAt(int level) {
    return scanMaxUncachedAtLevel[level].get();
  }

  private static LongAdder[] adders(int n) {
    LongAdder[] a = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  void compacted(int outputLevel, long read, long written) {
    compactionRead[outputLevel].add(read);
    compactionWritten[outputLevel].add(written);
  }

  void moved(int outputLevel, long bytes) {
    movedBytes[outputLevel].add(bytes);
  }

  public int levels() {
    return compactionWritten.length;
  }

  public long userBytes() {
    return userBytes.sum();
  }

  public long walBytes() {
    return walBytes.sum();
  }

  public long flushBytes() {
    return flushBytes.sum();
  }

  /** Bytes compactions wrote into {@code level}. */
  public long compactionBytesWritten(int level) {
    return compactionWritten[level].sum();
  }

  /** Bytes compactions read to produce output in {@code level}. */
  public long compactionBytesRead(int level) {
    return compactionRead[level].sum();
  }

  /** Bytes moved into {@code level} by manifest edits alone (not rewritten). */
  public long movedBytes(int level) {
    return movedBytes[level].sum();
  }

  public long compactionBytesWritten() {
    long sum = 0;
    for (LongAdder a : compactionWritten) {
      sum += a.sum();
    }
    return sum;
  }

  /** Bytes written into {@code level}: flushes for level 0, compactions elsewhere. */
  public long bytesWrittenTo(int level) {
    return (level == 0 ? flushBytes() : 0) + compactionBytesWritten(level);
  }

  /** (flush + compaction bytes) ÷ user bytes: the IAM paper's definition, log excluded. */
  public double writeAmplification() {
    long user = userBytes();
    return user == 0 ? 0 : (double) (flushBytes() + compactionBytesWritten()) / user;
  }

  /** Like {@link #writeAmplification()} with the write-ahead log's bytes included. */
  public double writeAmplificationWithWal() {
    long user = userBytes();
    return user == 0 ? 0 : (double) (flushBytes() + compactionBytesWritten() + walBytes()) / user;
  }

  /** Bytes written into {@code level} ÷ user bytes. */
  public double writeAmplification(int level) {
    long user = userBytes();
    return user == 0 ? 0 : (double) bytesWrittenTo(level) / user;
  }

  /** Seeks of store iterators (each starts a scan). */
  public long scans() {
    return scans.sum();
  }

  /**
   * Sorted sequences a scan reads from, summed over scans: at each seek, every sequence of the
   * memtables' level-0 files and, per deeper level, of the one file holding the seek key or the
   * next key after it (the paper's read amplification of a short scan).
   */
  public long scanSequences() {
    return scanSequences.sum();
  }

  /**
   * Of {@link #scanSequences()}, those whose block at the seek position was not in the block cache
   * when the scan began: the disk reads a scan starts with.
   */
  public long scanUncachedSequences() {
    return scanUncachedSequences.sum();
  }

  /** The most uncached sequences one scan found on one level. */
  public long scanMaxUncachedPerLevel() {
    return scanMaxUncachedPerLevel.get();
  }

  public long stallMicros() {
    return stallNanos.sum() / 1000;
  }

  /** The part of {@link #stallMicros()} writers stood still for {@code cause}. */
  public long stallMicros(StallCause cause) {
    return stallNanosBy[cause.ordinal()].sum() / 1000;
  }

  /** How long memtable flushes waited for the tree to make room before they could start. */
  public long flushWaitMicros() {
    return flushWaitNanos.sum() / 1000;
  }

  /** Writers stood still {@code nanos} for {@code cause}. */
  void stalled(StallCause cause, long nanos) {
    stallNanos.add(nanos);
    stallNanosBy[cause.ordinal()].add(nanos);
  }

  private static LongAdder[] newAdders(int n) {
    LongAdder[] adders = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      adders[i] = new LongAdder();
    }
    return adders;
  }

  public long slowdownMicros() {
    return slowdownNanos.sum() / 1000;
  }

  /** tree=lsbm: point reads answered by the compaction buffer. */
  public long bufferHits() {
    return bufferHits.sum();
  }

  /** tree=lsbm: buffer files removed by trims (Algorithm 2). */
  public long bufferTrimmed() {
    return bufferTrimmed.sum();
  }

  /** tree=lsbm: buffer files removed at the pace (cap, smallest maximum key first). */
  public long bufferPaced() {
    return bufferPaced.sum();
  }

  /** tree=lsbm: buffer files retired because C_i data over their whole range moved on. */
  public long bufferRetired() {
    return bufferRetired.sum();
  }

  /** tree=lsbm: files appended to the buffer by buffered merges. */
  public long bufferAppends() {
    return bufferAppends.sum();
  }

  /** tree=lsbm: merges into a frozen buffer list (nothing appended). */
  public long bufferFrozenMerges() {
    return bufferFrozenMerges.sum();
  }

  /** Every counter by name, for benchmarks and monitoring. */
  public Map<String, Number> asMap() {
    Map<String, Number> m = new LinkedHashMap<>();
    m.put("user.bytes", userBytes());
    m.put("user.writes", userWrites.sum());
    m.put("wal.bytes", walBytes());
    m.put("wal.syncs", walSyncs.sum());
    m.put("flush.bytes", flushBytes());
    m.put("flush.count", flushes.sum());
    m.put("flush.failures", flushFailures.sum());
    m.put("compaction.count", compactions.sum());
    m.put("compaction.trivial-moves", trivialMoves.sum());
    m.put("compaction.failures", compactionFailures.sum());
    m.put("compaction.bytes-written", compactionBytesWritten());
    for (int level = 0; level < levels(); level++) {
      m.put("level." + level + ".bytes-read", compactionBytesRead(level));
      m.put("level." + level + ".bytes-written", bytesWrittenTo(level));
      m.put("level." + level + ".bytes-moved", movedBytes(level));
      m.put("level." + level + ".write-amplification", writeAmplification(level));
      m.put("level." + level + ".scan-max-uncached", scanMaxUncachedAt(level));
    }
    m.put("write-amplification", writeAmplification());
    m.put("write-amplification.with-wal", writeAmplificationWithWal());
    m.put("stall.micros", stallMicros());
    for (StallCause cause : StallCause.values()) {
      m.put(cause.property(), stallMicros(cause));
    }
    m.put("flush-wait.micros", flushWaitMicros());
    m.put("slowdown.micros", slowdownMicros());
    m.put("get.count", gets.sum());
    m.put("scan.count", scans.sum());
    m.put("scan.sequences", scanSequences.sum());
    m.put("scan.uncached-sequences", scanUncachedSequences.sum());
    m.put("scan.max-uncached-per-level", scanMaxUncachedPerLevel.get());
    m.put("node.appends", nodeAppends.sum());
    m.put("node.merges", nodeMerges.sum());
    m.put("node.cuts", nodeCuts.sum());
    m.put("node.splits", nodeSplits.sum());
    m.put("node.moves", nodeMoves.sum());
    m.put("node.moves-kept", nodeMovesKept.sum());
    m.put("node.moves-rewritten", nodeMovesRewritten.sum());
    m.put("node.combines", nodeCombines.sum());
    m.put("node.levels-added", levelsAdded.sum());
    m.put("node.parallel-jobs", parallelJobs.sum());
    m.put("buffer.lookups", bufferLookups.sum());
    m.put("buffer.hits", bufferHits.sum());
    m.put("buffer.fallbacks", bufferFallbacks.sum());
    m.put("buffer.scans", bufferScans.sum());
    m.put("buffer.appends", bufferAppends.sum());
    m.put("buffer.frozen-merges", bufferFrozenMerges.sum());
    m.put("buffer.retired", bufferRetired.sum());
    m.put("buffer.paced", bufferPaced.sum());
    m.put("buffer.trimmed", bufferTrimmed.sum());
    m.put("buffer.trims", bufferTrims.sum());
    m.put("minmax.buckets-written", minmaxBuckets.sum());
    m.put("minmax.bucket-bytes-written", minmaxBucketBytes.sum());
    m.put("minmax.forced-evictions", minmaxForcedEvictions.sum());
    m.put("minmax.sorts", minmaxSorts.sum());
    m.put("minmax.point-reads", minmaxPointReads.sum());
    m.put("minmax.point-read-buckets", minmaxPointBuckets.sum());
    m.put("minmax.buckets-per-point-read", ratio(minmaxPointBuckets.sum(), minmaxPointReads.sum()));
    m.put("minmax.range-reads", minmaxRangeReads.sum());
    m.put("minmax.range-read-buckets", minmaxRangeBuckets.sum());
    m.put("minmax.buckets-per-range-read", ratio(minmaxRangeBuckets.sum(), minmaxRangeReads.sum()));
    m.put("stack.merges", stackMerges.sum());
    m.put("stack.runs-merged", stackRunsMerged.sum());
    m.put("stack.entries-read", stackEntriesRead.sum());
    m.put("stack.entries-written", stackEntriesWritten.sum());
    m.put("bloom.checked", bloomChecked.sum());
    m.put("bloom.useful", bloomUseful.sum());
    m.put("bloom.false-positive", bloomFalsePositive.sum());
    return m;
  }

  private static double ratio(long a, long b) {
    return b == 0 ? 0 : (double) a / b;
  }
}
