package io.iam.bench.host;

import io.iam.core.policy.PolicyOptions;
import java.io.IOException;
import java.util.Map;

/**
 * Measures the bytes every component of a host's store holds whatever its data: its files'
 * metadata pages and the part-filled last page of each file. A merge of n components writes them
 * once instead of n times, so it writes less than the sum of its inputs, which the cost model
 * counts in full. The calibration runs the host under {@code constant} with k = 1, which merges
 * every flush into the one component before it, over {@link #FLUSHES} flushes of the experiment's
 * size, and divides what its merges wrote less than their inputs by the inputs after the first.
 *
 * @param fixedBytes the bytes a merge saved per input after the first, rounded; 0 if the host does
 *     not say what its merges read
 * @param source where the figure came from, for the report
 */
public record FixedBytesCalibration(long fixedBytes, String source) {

  /** The calibration's flushes: merges of 2 to this many flushes' worth of records. */
  public static final int FLUSHES = 24;

  /**
   * Runs the calibration in {@code experiment}, with flushes of {@code recordsPerFlush} records of
   * {@code valueBytes} on {@code nodes} nodes, as the experiment's.
   *
   * @throws IOException if the host fails, or its calibration merged nothing
   */
  public static FixedBytesCalibration measure(HostExperiment experiment, int recordsPerFlush, int valueBytes,
      int nodes) throws IOException {
    HostRun run = experiment.run(new HostExperiment.Spec("constant",
        Map.of(PolicyOptions.MAX_COMPONENTS.key(), "1"), FLUSHES, recordsPerFlush, valueBytes, nodes), f -> {});
    return of(run);
  }

  /** The calibration from the run of {@code constant} k = 1 that {@link #measure} makes. */
  static FixedBytesCalibration of(HostRun run) throws IOException {
    int merges = run.mergeLengths().size();
    if (merges == 0) {
      throw new IOException(run.host() + ": the calibration's " + run.flushLengths().size()
          + " flushes under constant k=1 merged nothing");
    }
    double saved = run.bytesSavedPerMergedComponent();
    if (!Double.isFinite(saved)) {
      return new FixedBytesCalibration(0, run.host() + " does not say what its merges read, so none are counted");
    }
    return new FixedBytesCalibration(Math.round(saved), "measured by " + merges + " merges of "
        + run.flushLengths().size() + " flushes under constant k=1");
  }

  /** Fixed bytes the user gave, without a run. */
  public static FixedBytesCalibration given(long fixedBytes) {
    return new FixedBytesCalibration(fixedBytes, "given with --fixed-bytes");
  }
}
