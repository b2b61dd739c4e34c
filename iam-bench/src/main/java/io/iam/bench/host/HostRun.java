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
 */
public record HostRun(String host, String describe, List<Long> flushLengths, List<Long> mergeLengths,
    long mergeMillis, double averageComponents, int maxComponents, long elapsedMillis) {

  public HostRun {
    flushLengths = List.copyOf(flushLengths);
    mergeLengths = List.copyOf(mergeLengths);
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
