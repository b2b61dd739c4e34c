package io.iam.bench.load;

import io.iam.bench.util.Threads;
import io.iam.core.util.DaemonThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits until a store's background flushes and compactions are done, polling a {@link Probe},
 * bounded by a timeout.
 *
 * <p>A store may keep reporting a compaction as pending while it has nothing to do (RocksDB does
 * this: {@code rocksdb.compaction-pending} can stay at 1 while it logs "nothing to do"). So the
 * store is also taken as settled when a compaction is reported pending but nothing runs, nothing
 * is waiting to be flushed and no bytes are written for a grace period. Anything still running at
 * the timeout is a {@link SettleTimeoutException}.
 *
 * <p>A store that settles itself with one blocking call (IAM's {@code IamStore.flushAndSettle()})
 * is bounded by the same timeout with {@link #bounded}.
 */
public final class SettleWaiter {

  /** How the wait ended. */
  public enum Outcome {
    /** Nothing pending, nothing running. */
    IDLE,
    /** A compaction still reported pending, but the store stayed quiet for the grace period. */
    QUIET_WITH_COMPACTION_PENDING
  }

  /**
   * One reading of a store's background work.
   *
   * @param flushPending a memtable waits to be flushed
   * @param runningFlushes flushes running now
   * @param compactionPending the store reports that a compaction is needed
   * @param runningCompactions compactions running now
   * @param bytesWritten flush plus compaction bytes written so far, to see whether work happens
   */
  public record Work(
      boolean flushPending, int runningFlushes, boolean compactionPending, int runningCompactions,
      long bytesWritten) {

    boolean idle() {
      return nothingRunning() && !compactionPending;
    }

    boolean nothingRunning() {
      return !flushPending && runningFlushes == 0 && runningCompactions == 0;
    }

    String describe() {
      List<String> parts = new ArrayList<>();
      if (flushPending) {
        parts.add("a flush pending");
      }
      parts.add(runningFlushes + (runningFlushes == 1 ? " flush" : " flushes") + " running");
      if (compactionPending) {
        parts.add("a compaction pending");
      }
      parts.add(runningCompactions + (runningCompactions == 1 ? " compaction" : " compactions") + " running");
      return String.join(", ", parts);
    }
  }

  /** Reads a store's background work. */
  @FunctionalInterface
  public interface Probe {
    Work read() throws IOException;
  }

  /** A store's own blocking wait for its background work. */
  @FunctionalInterface
  public interface Blocking {
    void run() throws IOException;
  }

  /** Time, replaceable in tests. */
  interface Clock {
    long nanoTime();

    void sleep(Duration d) throws InterruptedException;
  }

  static final Clock SYSTEM_CLOCK = new Clock() {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public void sleep(Duration d) throws InterruptedException {
      Thread.sleep(d.toMillis());
    }
  };

  /** Default quiet period before a stuck "compaction pending" is taken as nothing to do. */
  public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);
  static final Duration POLL = Duration.ofMillis(20);

  private final String store;
  private final Duration timeout;
  private final Duration grace;
  private final Clock clock;

  SettleWaiter(String store, Duration timeout, Duration grace, Clock clock) {
    this.store = Objects.requireNonNull(store);
    this.timeout = Objects.requireNonNull(timeout);
    this.grace = Objects.requireNonNull(grace);
    this.clock = Objects.requireNonNull(clock);
  }

  /** A waiter on the system clock with the default grace period. */
  public static SettleWaiter of(String store, Duration timeout) {
    return new SettleWaiter(store, timeout, DEFAULT_GRACE, SYSTEM_CLOCK);
  }

  /**
   * Polls until the store is settled.
   *
   * @throws SettleTimeoutException if it is not settled within the timeout
   */
  public Outcome await(Probe probe) throws IOException {
    long start = clock.nanoTime();
    long quietSince = -1;
    long lastWritten = Long.MIN_VALUE;
    while (true) {
      Work w = probe.read();
      long now = clock.nanoTime();
      if (w.idle()) {
        return Outcome.IDLE;
      }
      if (w.nothingRunning() && w.bytesWritten() == lastWritten) {
        if (quietSince < 0) {
          quietSince = now;
        } else if (now - quietSince >= grace.toNanos()) {
          return Outcome.QUIET_WITH_COMPACTION_PENDING;
        }
      } else {
        quietSince = w.nothingRunning() ? now : -1;
      }
      lastWritten = w.bytesWritten();
      if (now - start >= timeout.toNanos()) {
        throw new SettleTimeoutException(store + ": background flushes and compactions did not finish within "
            + human(timeout) + " (still " + w.describe() + ")");
      }
      try {
        clock.sleep(POLL);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(store + ": interrupted while waiting for background work");
      }
    }
  }

  /**
   * Runs a store's own blocking settle on a helper thread and waits for it at most {@code timeout}.
   * At the timeout the helper is interrupted (a store's wait ends with an {@link
   * InterruptedIOException}; closing the store ends it too).
   *
   * @throws SettleTimeoutException if {@code settle} has not returned within the timeout
   * @throws IOException what {@code settle} threw
   */
  public static void bounded(String store, Duration timeout, Blocking settle) throws IOException {
    try {
      DaemonThreads.callWithin(store + "-settle-", timeout.toNanos(), TimeUnit.NANOSECONDS, () -> {
        settle.run();
        return null;
      });
    } catch (TimeoutException e) {
      throw new SettleTimeoutException(store + ": background flushes and compactions did not finish within "
          + human(timeout));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(store + ": interrupted while waiting for background work");
    } catch (ExecutionException e) {
      throw Threads.rethrown(e.getCause(), store + ": settling failed");
    }
  }

  private static String human(Duration d) {
    long s = d.toSeconds();
    return s >= 1 ? s + " s" : d.toMillis() + " ms";
  }
}
