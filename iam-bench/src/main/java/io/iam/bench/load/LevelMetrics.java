package io.iam.bench.load;

/**
 * One level of a store after a load.
 *
 * @param level 0 for the level flushes write to, then 1, 2, ...
 * @param files live table files in the level
 * @param bytes size of those files
 * @param bytesWritten bytes written into this level during the load (flushes for level 0,
 *     compaction output for the others)
 * @param writeAmplification {@code bytesWritten / userBytes}: the levels' figures add up to the
 *     store's total
 */
public record LevelMetrics(int level, int files, long bytes, long bytesWritten, double writeAmplification) {

  /** A level, its write amplification relative to {@code userBytes} put into the store. */
  public static LevelMetrics of(int level, int files, long bytes, long bytesWritten, long userBytes) {
    return new LevelMetrics(level, files, bytes, bytesWritten,
        userBytes == 0 ? 0 : (double) bytesWritten / userBytes);
  }
}
