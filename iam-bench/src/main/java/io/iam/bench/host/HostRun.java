package io.iam.bench.host;

import java.util.List;

/**
 * What a host wrote in one experiment, counted by the host itself.
 *
 * @param host the host's name
 * @param describe the store and policy as the host holds them
 * @param flushLengths the bytes of every flushed component, in order
 * @param mergeLengths the bytes of every merged component, in order of completion
 * @param mergeMillis the time merges ran, added up
 * @param averageComponents the store's disk components after each flush and the merges it
 *     triggered, averaged over the flushes
 * @param maxComponents the most disk components seen after a flush
 * @param elapsedMillis the wall time of the run
 * @param mergeInputs the components the merges read, added up; 0 if the host does not say
 * @param mergeInputBytes the bytes of those components, added up
 */
public record HostRun(String host, String describe, List<Long> flushLengths, List<Long> mergeLengths,
    long mergeMillis, double averageComponents, int maxComponents, long elapsedMillis, long mergeInputs,
    long mergeInputBytes) {

  public HostRun {
    flushLengths = List.copyOf(flushLengths);
    mergeLengths = List.copyOf(mergeLengths);
  }

  /** A run whose host does not say what its merges read. */
  public HostRun(String host, String describe, List<Long> flushLengths, List<Long> mergeLengths, long mergeMillis,
      double averageComponents, int maxComponents, long elapsedMillis) {
    this(host, describe, flushLengths, mergeLengths, mergeMillis, averageComponents, maxComponents, elapsedMillis, 0, 0);
  }

  /**
   * How many bytes less than the sum of its inputs a merge wrote, per input beyond the first: the
   * part of a component that does not grow with its data (its files' metadata pages, say), which
   * the cost model does not count. NaN if the host does not say what its merges read.
   */
  public double bytesSavedPerMergedComponent() {
    long extra = mergeInputs - mergeLengths.size();
    return mergeInputs == 0 || extra <= 0 ? Double.NaN : (double) (mergeInputBytes - bytesMerged()) / extra;
  }

  public long bytesFlushed() {
    return flushLengths.stream().mapToLong(Long::longValue).sum();
  }

  public long bytesMerged() {
    return mergeLengths.stream().mapToLong(Long::longValue).sum();
  }

  /** (flushed + merged) / flushed, as the bounded-depth paper counts it. */
  public double writeAmplification() {
    long flushed = bytesFlushed();
    return flushed == 0 ? 0 : (double) (flushed + bytesMerged()) / flushed;
  }
}
