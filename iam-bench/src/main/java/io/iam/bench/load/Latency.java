package io.iam.bench.load;

import org.HdrHistogram.Histogram;

/**
 * Put latency percentiles in microseconds (recorded in nanoseconds, so sub-microsecond puts are
 * not rounded away).
 */
public record Latency(long count, double p50Micros, double p99Micros, double p999Micros, double maxMicros) {

  /** A histogram that records nanoseconds with three significant digits and grows as needed. */
  static Histogram newNanosHistogram() {
    return new Histogram(3);
  }

  /** The percentiles of a histogram of nanoseconds. */
  static Latency ofNanos(Histogram nanos) {
    return new Latency(nanos.getTotalCount(),
        micros(nanos.getValueAtPercentile(50)),
        micros(nanos.getValueAtPercentile(99)),
        micros(nanos.getValueAtPercentile(99.9)),
        micros(nanos.getMaxValue()));
  }

  private static double micros(long nanos) {
    return nanos / 1000.0;
  }
}
