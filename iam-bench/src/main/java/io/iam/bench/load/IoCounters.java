package io.iam.bench.load;

/**
 * A store's own counters of merge and read I/O, as {@link LoadTarget#ioCounters()} reports them
 * since the store was opened; a counter the store does not keep is {@value #UNKNOWN}. Take two
 * readings and {@link #minus} them to get what a phase did.
 *
 * <ul>
 *   <li>IAM's embedded engine ({@link IamStoreTarget}): {@code compaction.count} of its {@code
 *       Statistics} (files moved down a level without a rewrite are not compactions), the bytes
 *       compactions read summed over the levels, and the misses of its block cache, which holds data
 *       blocks only (index and Bloom filter are in memory; compactions bypass the cache).
 *   <li>RocksDB ({@link RocksDbTarget}): the number of compactions timed ({@code COMPACTION_TIME}
 *       histogram; trivial moves are not timed), the {@code COMPACT_READ_BYTES} ticker, and the data
 *       block misses of its block cache ({@code BLOCK_CACHE_DATA_MISS}; index and filter misses left
 *       out, so that both count the same blocks).
 * </ul>
 *
 * @param compactions merges run
 * @param compactionBytesRead bytes the merges read from table files
 * @param dataBlockReads data blocks read from table files by user reads (block-cache misses)
 */
public record IoCounters(long compactions, long compactionBytesRead, long dataBlockReads) {

  /** A counter the store does not keep. */
  public static final long UNKNOWN = -1;

  /** A store that keeps none of them. */
  public static final IoCounters NONE = new IoCounters(UNKNOWN, UNKNOWN, UNKNOWN);

  /** What happened between {@code earlier} and this reading; unknown stays unknown. */
  public IoCounters minus(IoCounters earlier) {
    return new IoCounters(delta(compactions, earlier.compactions), delta(compactionBytesRead,
        earlier.compactionBytesRead), delta(dataBlockReads, earlier.dataBlockReads));
  }

  private static long delta(long now, long then) {
    return now == UNKNOWN || then == UNKNOWN ? UNKNOWN : now - then;
  }
}
