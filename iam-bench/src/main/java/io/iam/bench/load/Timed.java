package io.iam.bench.load;

import io.iam.bench.util.Progress;
import java.io.IOException;
import org.HdrHistogram.Histogram;

/**
 * A phase of operations run one after the other from one thread, each one timed.
 *
 * @param ops operations run
 * @param nanos wall time of the whole phase, preparing the operations included (building keys and
 *     values costs far less than a store operation)
 * @param latency the time of each operation alone
 */
public record Timed(long ops, long nanos, Latency latency) {

  /** How often the progress bar is fed. */
  private static final int PROGRESS_EVERY = 1024;

  /** One operation, prepared and ready to be timed. */
  @FunctionalInterface
  interface Op {
    void run() throws IOException;
  }

  /** Prepares operation {@code n} (0-based) outside the timing: its key, its value. */
  @FunctionalInterface
  interface Ops {
    Op prepare(long n) throws IOException;
  }

  /** Operations per second over the phase's wall time. */
  public double opsPerSecond() {
    return ops / seconds();
  }

  /** The phase's wall time in seconds (at least a nanosecond, so that rates stay finite). */
  public double seconds() {
    return Math.max(nanos, 1) / 1e9;
  }

  public long millis() {
    return nanos / 1_000_000;
  }

  /** Runs {@code count} operations from {@code ops}, timing each, and moves {@code bar} along. */
  static Timed run(long count, Ops ops, Progress bar) throws IOException {
    Histogram latency = Latency.newNanosHistogram();
    long start = System.nanoTime();
    for (long n = 0; n < count; n++) {
      Op op = ops.prepare(n);
      long t0 = System.nanoTime();
      op.run();
      latency.recordValue(System.nanoTime() - t0);
      if ((n + 1) % PROGRESS_EVERY == 0) {
        bar.stepTo(n + 1);
      }
    }
    long nanos = System.nanoTime() - start;
    bar.stepTo(count);
    return new Timed(count, nanos, Latency.ofNanos(latency));
  }
}
