package io.iam.bench.host;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 * @param nodes for a store partitioned over several nodes, each partition's run by node name (in
 *     node order), of which this run is the total; empty for one store on one node
 */
public record HostRun(String host, String describe, List<Long> flushLengths, List<Long> mergeLengths,
    long mergeMillis, double averageComponents, int maxComponents, long elapsedMillis, long mergeInputs,
    long mergeInputBytes, Map<String, HostRun> nodes) {

  public HostRun {
    flushLengths = List.copyOf(flushLengths);
    mergeLengths = List.copyOf(mergeLengths);
    nodes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
  }

  /** A run of one store on one node. */
  public HostRun(String host, String describe, List<Long> flushLengths, List<Long> mergeLengths, long mergeMillis,
      double averageComponents, int maxComponents, long elapsedMillis, long mergeInputs, long mergeInputBytes) {
    this(host, describe, flushLengths, mergeLengths, mergeMillis, averageComponents, maxComponents, elapsedMillis,
        mergeInputs, mergeInputBytes, Map.of());
  }

  /** A run whose host does not say what its merges read. */
  public HostRun(String host, String describe, List<Long> flushLengths, List<Long> mergeLengths, long mergeMillis,
      double averageComponents, int maxComponents, long elapsedMillis) {
    this(host, describe, flushLengths, mergeLengths, mergeMillis, averageComponents, maxComponents, elapsedMillis, 0, 0);
  }

  /**
   * The total of a store partitioned over {@code nodes} (at least one): the flushes and merges of
   * every partition (in node order), their merge time added up, the partitions' average component
   * counts averaged and their largest maximum.
   */
  public static HostRun ofNodes(String host, String describe, Map<String, HostRun> nodes, long elapsedMillis) {
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("a partitioned run needs at least one node");
    }
    List<Long> flushes = new ArrayList<>();
    List<Long> merges = new ArrayList<>();
    long mergeMillis = 0;
    double components = 0;
    int max = 0;
    long inputs = 0;
    long inputBytes = 0;
    for (HostRun n : nodes.values()) {
      flushes.addAll(n.flushLengths);
      merges.addAll(n.mergeLengths);
      mergeMillis += n.mergeMillis;
      components += n.averageComponents;
      max = Math.max(max, n.maxComponents);
      inputs += n.mergeInputs;
      inputBytes += n.mergeInputBytes;
    }
    return new HostRun(host, describe, flushes, merges, mergeMillis, components / nodes.size(), max, elapsedMillis,
        inputs, inputBytes, nodes);
  }

  /** The flushes of one partition: all of them for one store on one node. */
  public int flushesPerNode() {
    return flushLengths.size() / Math.max(1, nodes.size());
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
