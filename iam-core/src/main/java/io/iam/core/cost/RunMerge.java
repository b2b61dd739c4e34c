package io.iam.core.cost;

import java.util.Arrays;

/**
 * What one flush of a stack store did, as the store recorded it: the on-disk runs it merged (their
 * flush counts and entries, read from their files' metadata) and the run it wrote. A flush that
 * merged nothing has no inputs. Immutable.
 *
 * @param inputFlushes flushes held by each on-disk run that was merged, oldest first
 * @param inputEntries entries of each of those runs
 * @param outputFlushes flushes held by the run written
 * @param outputEntries entries of the run written
 */
public record RunMerge(long[] inputFlushes, long[] inputEntries, long outputFlushes, long outputEntries) {

  public RunMerge {
    if (inputFlushes.length != inputEntries.length || outputFlushes < 1 || outputEntries < 0) {
      throw new IllegalArgumentException("bad run merge: " + Arrays.toString(inputFlushes) + " -> " + outputFlushes);
    }
    inputFlushes = inputFlushes.clone();
    inputEntries = inputEntries.clone();
  }

  /** Entries read from disk: the inputs' entries (the flushed memtable is in memory). */
  public long readEntries() {
    return Arrays.stream(inputEntries).sum();
  }
}
