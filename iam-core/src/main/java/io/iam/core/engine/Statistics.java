package io.iam.core.engine;

import io.iam.core.engine.seam.StoreCounters;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of a store since it was opened: what users wrote, what the log, flushes and
 * compactions wrote (per output level), stalls, and the Bloom filters' usefulness. A read-only
 * view for users: the store's parts bump the {@link StoreCounters} behind it, and the store
 * counts the write stalls here. Thread-safe. Write amplification follows the IAM paper: bytes written to
 * table files (flushes + compactions) ÷ bytes users wrote, the log excluded; a second figure
 * includes the log.
 */
public final class Statistics {

  private final StoreCounters c;
  private final LongAdder stallNanos = new LongAdder();
  private final LongAdder[] stallNanosBy = StoreCounters.adders(StallCause.values().length);
  private final StallLengths stallLengths = new StallLengths();

  Statistics(StoreCounters counters) {
    this.c = counters;
  }

  /** The counters the store's parts bump. */
  StoreCounters counters() {
    return c;
  }

  /** The most uncached sequences one scan found on {@code level}. */
  public long scanMaxUncachedAt(int level) {
    return c.scanMaxUncachedAt(level);
  }

  public int levels() {
    return c.levels();
  }

  public long userBytes() {
    return c.userBytes.sum();
  }

  public long walBytes() {
    return c.walBytes.sum();
  }

  public long flushBytes() {
    return c.flushBytes.sum();
  }

  /** Bytes compactions wrote into {@code level}. */
  public long compactionBytesWritten(int level) {
    return c.compactionBytesWritten(level);
  }

  /** Bytes compactions read to produce output in {@code level}. */
  public long compactionBytesRead(int level) {
    return c.compactionBytesRead(level);
  }

  /** Bytes moved into {@code level} by manifest edits alone (not rewritten). */
  public long movedBytes(int level) {
    return c.movedBytes(level);
  }

  public long compactionBytesWritten() {
    long sum = 0;
    for (int level = 0; level < c.levels(); level++) {
      sum += c.compactionBytesWritten(level);
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
    return c.scans.sum();
  }

  /**
   * Sorted sequences a scan reads from, summed over scans: at each seek, every sequence of the
   * memtables' level-0 files and, per deeper level, of the one file holding the seek key or the
   * next key after it (the paper's read amplification of a short scan).
   */
  public long scanSequences() {
    return c.scanSequences.sum();
  }

  /**
   * Of {@link #scanSequences()}, those whose block at the seek position was not in the block cache
   * when the scan began: the disk reads a scan starts with.
   */
  public long scanUncachedSequences() {
    return c.scanUncachedSequences.sum();
  }

  /** The most uncached sequences one scan found on one level. */
  public long scanMaxUncachedPerLevel() {
    return c.scanMaxUncachedPerLevel.get();
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
    return c.flushWaitNanos.sum() / 1000;
  }

  /** Writers stood still {@code nanos} for {@code cause}. */
  void stalled(StallCause cause, long nanos) {
    stallNanos.add(nanos);
    stallNanosBy[cause.ordinal()].add(nanos);
  }

  /** One write found room after standing still {@code nanosByCause[cause.ordinal()]} for each cause. */
  void stallEnded(long[] nanosByCause) {
    stallLengths.record(nanosByCause);
  }

  /** How many writes stood still for {@code cause}. */
  public long stallWaits(StallCause cause) {
    return stallLengths.waits(cause);
  }

  /**
   * Of {@link #stallWaits}, how many stood still at least {@code millis} ms, one of {@link
   * StallCause#WAIT_BOUNDS_MILLIS}.
   */
  public long stallWaitsAtLeast(StallCause cause, long millis) {
    int bound = StallCause.WAIT_BOUNDS_MILLIS.indexOf(millis);
    if (bound < 0) {
      throw new IllegalArgumentException("waits are counted at " + StallCause.WAIT_BOUNDS_MILLIS + " ms, not " + millis);
    }
    return stallLengths.atLeast(cause, bound);
  }

  /** The longest that one write stood still for {@code cause}, in microseconds. */
  public long stallLongestMicros(StallCause cause) {
    return stallLengths.longestMicros(cause);
  }

  public long slowdownMicros() {
    return c.slowdownNanos.sum() / 1000;
  }

  /** tree=lsbm: point reads answered by the compaction buffer. */
  public long bufferHits() {
    return c.bufferHits.sum();
  }

  /** tree=lsbm: buffer files removed by trims (Algorithm 2). */
  public long bufferTrimmed() {
    return c.bufferTrimmed.sum();
  }

  /** tree=lsbm: buffer files removed at the pace (cap, smallest maximum key first). */
  public long bufferPaced() {
    return c.bufferPaced.sum();
  }

  /** tree=lsbm: buffer files retired because C_i data over their whole range moved on. */
  public long bufferRetired() {
    return c.bufferRetired.sum();
  }

  /** tree=lsbm: files appended to the buffer by buffered merges. */
  public long bufferAppends() {
    return c.bufferAppends.sum();
  }

  /** tree=lsbm: merges into a frozen buffer list (nothing appended). */
  public long bufferFrozenMerges() {
    return c.bufferFrozenMerges.sum();
  }

  /** Every counter by name, for benchmarks and monitoring. */
  public Map<String, Number> asMap() {
    Map<String, Number> m = new LinkedHashMap<>();
    m.put("user.bytes", userBytes());
    m.put("user.writes", c.userWrites.sum());
    m.put("wal.bytes", walBytes());
    m.put("wal.syncs", c.walSyncs.sum());
    m.put("flush.bytes", flushBytes());
    m.put("flush.count", c.flushes.sum());
    m.put("flush.failures", c.flushFailures.sum());
    m.put("compaction.count", c.compactions.sum());
    m.put("compaction.trivial-moves", c.trivialMoves.sum());
    m.put("compaction.failures", c.compactionFailures.sum());
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
      m.put(cause.waitsProperty(), stallWaits(cause));
      for (long millis : StallCause.WAIT_BOUNDS_MILLIS) {
        m.put(cause.waitsAtLeastProperty(millis), stallWaitsAtLeast(cause, millis));
      }
      m.put(cause.longestProperty(), stallLongestMicros(cause));
    }
    m.put("flush-wait.micros", flushWaitMicros());
    m.put("slowdown.micros", slowdownMicros());
    m.put("get.count", c.gets.sum());
    m.put("scan.count", c.scans.sum());
    m.put("scan.sequences", c.scanSequences.sum());
    m.put("scan.uncached-sequences", c.scanUncachedSequences.sum());
    m.put("scan.max-uncached-per-level", c.scanMaxUncachedPerLevel.get());
    m.put("node.appends", c.nodeAppends.sum());
    m.put("node.merges", c.nodeMerges.sum());
    m.put("node.cuts", c.nodeCuts.sum());
    m.put("node.splits", c.nodeSplits.sum());
    m.put("node.moves", c.nodeMoves.sum());
    m.put("node.moves-kept", c.nodeMovesKept.sum());
    m.put("node.moves-rewritten", c.nodeMovesRewritten.sum());
    m.put("node.combines", c.nodeCombines.sum());
    m.put("node.levels-added", c.levelsAdded.sum());
    m.put("node.parallel-jobs", c.parallelJobs.sum());
    m.put("buffer.lookups", c.bufferLookups.sum());
    m.put("buffer.hits", c.bufferHits.sum());
    m.put("buffer.fallbacks", c.bufferFallbacks.sum());
    m.put("buffer.scans", c.bufferScans.sum());
    m.put("buffer.appends", c.bufferAppends.sum());
    m.put("buffer.frozen-merges", c.bufferFrozenMerges.sum());
    m.put("buffer.retired", c.bufferRetired.sum());
    m.put("buffer.paced", c.bufferPaced.sum());
    m.put("buffer.trimmed", c.bufferTrimmed.sum());
    m.put("buffer.trims", c.bufferTrims.sum());
    m.put("minmax.buckets-written", c.minmaxBuckets.sum());
    m.put("minmax.bucket-bytes-written", c.minmaxBucketBytes.sum());
    m.put("minmax.forced-evictions", c.minmaxForcedEvictions.sum());
    m.put("minmax.sorts", c.minmaxSorts.sum());
    m.put("minmax.point-reads", c.minmaxPointReads.sum());
    m.put("minmax.point-read-buckets", c.minmaxPointBuckets.sum());
    m.put("minmax.buckets-per-point-read", ratio(c.minmaxPointBuckets.sum(), c.minmaxPointReads.sum()));
    m.put("minmax.range-reads", c.minmaxRangeReads.sum());
    m.put("minmax.range-read-buckets", c.minmaxRangeBuckets.sum());
    m.put("minmax.buckets-per-range-read", ratio(c.minmaxRangeBuckets.sum(), c.minmaxRangeReads.sum()));
    m.put("stack.merges", c.stackMerges.sum());
    m.put("stack.runs-merged", c.stackRunsMerged.sum());
    m.put("stack.entries-read", c.stackEntriesRead.sum());
    m.put("stack.entries-written", c.stackEntriesWritten.sum());
    m.put("bloom.checked", c.bloomChecked.sum());
    m.put("bloom.useful", c.bloomUseful.sum());
    m.put("bloom.false-positive", c.bloomFalsePositive.sum());
    return m;
  }

  private static double ratio(long a, long b) {
    return b == 0 ? 0 : (double) a / b;
  }
}
