package io.iam.bench.load;

import io.iam.bench.util.Progress;
import io.iam.bench.util.Threads;
import io.iam.core.util.DaemonThreads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;

/**
 * A phase of operations, each one timed on the thread that runs it: one after the other from one
 * thread, or split over several threads that run at once.
 *
 * @param ops operations run
 * @param nanos wall time of the whole phase, preparing the operations included (building keys and
 *     values costs far less than a store operation)
 * @param latency the time of each operation alone
 */
public record Timed(long ops, long nanos, Latency latency) {

  /** How often each thread feeds the progress bar. */
  private static final int PROGRESS_EVERY = 1024;

  /** The threads of a phase run on several. */
  private static final ThreadFactory THREADS = DaemonThreads.named("iam-timed-");

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

  /** Runs {@code count} operations from {@code ops} on this thread, timing each, and moves {@code bar} along. */
  static Timed run(long count, Ops ops, Progress bar) throws IOException {
    return run(count, 1, thread -> ops, bar);
  }

  /**
   * Runs {@code count} operations on {@code threads} threads at once, timing each on its thread, and
   * moves {@code bar} along from all of them. Thread {@code t} runs operations {@code n = t, t +
   * threads, t + 2 threads, ...} in that order, each prepared by {@code opsOf.apply(t)}, which is
   * called once per thread; a single thread is this one. The latencies of all threads are merged;
   * the wall time runs from before the first operation to after the last thread stopped.
   *
   * <p>An operation that throws stops the phase: every other thread stops after the operation it is
   * running, and once all have, the first failure is thrown here as it was thrown (an {@link
   * IOException}, a runtime exception or an error), any later ones suppressed in it.
   *
   * @throws IllegalArgumentException if {@code threads} is less than 1
   */
  static Timed run(long count, int threads, IntFunction<Ops> opsOf, Progress bar) throws IOException {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
    AtomicBoolean stop = new AtomicBoolean();
    long start = System.nanoTime();
    Histogram latency = threads == 1 ? share(0, 1, count, opsOf.apply(0), bar, stop)
        : concurrently(count, threads, opsOf, bar, stop);
    long nanos = System.nanoTime() - start;
    bar.stepTo(count);
    return new Timed(count, nanos, Latency.ofNanos(latency));
  }

  /** Operations {@code first, first + step, ...} below {@code count}, each timed, until {@code stop}. */
  private static Histogram share(int first, int step, long count, Ops ops, Progress bar, AtomicBoolean stop)
      throws IOException {
    Histogram latency = Latency.newNanosHistogram();
    long done = 0;
    for (long n = first; n < count && !stop.get(); n += step) {
      Op op = ops.prepare(n);
      long t0 = System.nanoTime();
      op.run();
      latency.recordValue(System.nanoTime() - t0);
      if (++done % PROGRESS_EVERY == 0) {
        bar.accept(PROGRESS_EVERY);
      }
    }
    return latency;
  }

  /** {@link #share}s on threads of their own; their latencies merged, or the first failure thrown. */
  private static Histogram concurrently(long count, int threads, IntFunction<Ops> opsOf, Progress bar,
      AtomicBoolean stop) throws IOException {
    Histogram[] latencies = new Histogram[threads];
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    List<Thread> running = new ArrayList<>(threads);
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Ops ops = opsOf.apply(t);
      Thread runner = THREADS.newThread(() -> {
        try {
          latencies[thread] = share(thread, threads, count, ops, bar, stop);
        } catch (Throwable e) {
          stop.set(true);
          failures.add(e);
        }
      });
      running.add(runner);
      runner.start();
    }
    Threads.joinAll(running);
    if (!failures.isEmpty()) {
      Throwable first = failures.get(0);
      failures.subList(1, failures.size()).forEach(first::addSuppressed);
      throw Threads.rethrown(first, "a timed operation failed");
    }
    Histogram all = Latency.newNanosHistogram();
    for (Histogram h : latencies) {
      all.add(h);
    }
    return all;
  }
}
