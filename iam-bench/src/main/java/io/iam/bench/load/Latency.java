package io.iam.bench.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

/**
 * Operation latency percentiles in microseconds (recorded in nanoseconds, so sub-microsecond
 * operations are not rounded away).
 */
public record Latency(long count, double p50Micros, double p95Micros, double p99Micros, double p999Micros,
    double maxMicros) {

  /** A histogram that records nanoseconds with three significant digits and grows as needed. */
  public static Histogram newNanosHistogram() {
    return new Histogram(3);
  }

  /** The percentiles of a histogram of nanoseconds. */
  public static Latency ofNanos(Histogram nanos) {
    return new Latency(nanos.getTotalCount(),
        micros(nanos.getValueAtPercentile(50)),
        micros(nanos.getValueAtPercentile(95)),
        micros(nanos.getValueAtPercentile(99)),
        micros(nanos.getValueAtPercentile(99.9)),
        micros(nanos.getMaxValue()));
  }

  /** Puts the percentiles into {@code latency}: {@code p50}, {@code p95}, {@code p99}, {@code p999}, {@code max}. */
  public ObjectNode putJson(ObjectNode latency) {
    latency.put("p50", p50Micros);
    latency.put("p95", p95Micros);
    latency.put("p99", p99Micros);
    latency.put("p999", p999Micros);
    latency.put("max", maxMicros);
    return latency;
  }

  private static double micros(long nanos) {
    return nanos / 1000.0;
  }
}
