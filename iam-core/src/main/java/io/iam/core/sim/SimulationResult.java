package io.iam.core.sim;

import java.util.List;
import java.util.Map;

/**
 * The outcome of one simulation. All fields but {@code elapsedNanos} are determined by the
 * policy, its options, the flush stream (with its seed) and the accounting.
 *
 * @param policy the policy's name
 * @param options the policy's options in canonical text form
 * @param stream the flush stream's description
 * @param accounting how merged flushes were counted
 * @param flushes number of flushes simulated
 * @param bytesFlushed sum of the flush lengths
 * @param bytesWritten bytes written by flushes and merges
 * @param merges number of merges
 * @param averageComponents mean component count after each decision
 * @param maxComponents largest component count after any decision
 * @param series the state every {@code every} flushes, and after the last
 * @param elapsedNanos wall time of the run
 */
public record SimulationResult(
    String policy,
    Map<String, String> options,
    String stream,
    Accounting accounting,
    long flushes,
    long bytesFlushed,
    long bytesWritten,
    long merges,
    double averageComponents,
    int maxComponents,
    List<SeriesPoint> series,
    long elapsedNanos) {

  /** Bytes written ÷ bytes flushed (≥ 1). */
  public double writeAmplification() {
    return bytesFlushed == 0 ? 0 : (double) bytesWritten / bytesFlushed;
  }

  /** The series point at exactly {@code flushes}, if one was recorded. */
  public SeriesPoint at(long flushes) {
    for (SeriesPoint p : series) {
      if (p.flushes() == flushes) {
        return p;
      }
    }
    throw new IllegalArgumentException("no series point at " + flushes + " flushes");
  }
}
