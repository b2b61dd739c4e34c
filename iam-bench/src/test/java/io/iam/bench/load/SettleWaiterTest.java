package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The settle loop on a fake clock that advances only when the waiter sleeps; the bound around a
 * store's own blocking settle.
 */
class SettleWaiterTest {

  private static final class FakeClock implements SettleWaiter.Clock {
    long nanos;
    int sleeps;

    @Override
    public long nanoTime() {
      return nanos;
    }

    @Override
    public void sleep(Duration d) {
      nanos += d.toNanos();
      sleeps++;
    }
  }

  /** Replays readings, repeating the last one forever. */
  private static SettleWaiter.Probe replay(List<SettleWaiter.Work> readings) {
    Deque<SettleWaiter.Work> queue = new ArrayDeque<>(readings);
    return () -> queue.size() > 1 ? queue.poll() : queue.peek();
  }

  private static SettleWaiter.Work running(long written) {
    return new SettleWaiter.Work(false, 0, true, 1, written);
  }

  private static final SettleWaiter.Work IDLE = new SettleWaiter.Work(false, 0, false, 0, 100);

  @Test
  void returnsWhenBackgroundWorkEnds() throws Exception {
    FakeClock clock = new FakeClock();
    SettleWaiter waiter = new SettleWaiter("t", Duration.ofMinutes(1), Duration.ofSeconds(2), clock);

    SettleWaiter.Outcome outcome = waiter.await(replay(List.of(
        new SettleWaiter.Work(true, 1, false, 0, 10), running(20), running(30), IDLE)));

    assertEquals(SettleWaiter.Outcome.IDLE, outcome);
    assertEquals(3, clock.sleeps);
  }

  @Test
  void compactionPendingWithNothingRunningSettlesAfterTheGracePeriod() throws Exception {
    FakeClock clock = new FakeClock();
    SettleWaiter waiter = new SettleWaiter("t", Duration.ofMinutes(1), Duration.ofSeconds(2), clock);
    SettleWaiter.Work stuck = new SettleWaiter.Work(false, 0, true, 0, 500);

    SettleWaiter.Outcome outcome = waiter.await(replay(List.of(running(100), running(400), stuck)));

    assertEquals(SettleWaiter.Outcome.QUIET_WITH_COMPACTION_PENDING, outcome);
    assertTrue(clock.nanos >= Duration.ofSeconds(2).toNanos(), "waited the grace period");
    assertTrue(clock.nanos < Duration.ofSeconds(3).toNanos(), "but not much longer");
  }

  @Test
  void bytesStillBeingWrittenRestartTheGracePeriod() throws Exception {
    FakeClock clock = new FakeClock();
    SettleWaiter waiter = new SettleWaiter("t", Duration.ofMinutes(1), Duration.ofMillis(100), clock);
    // Nothing is reported running, but bytes keep growing for 50 polls (1 s), then stop.
    List<SettleWaiter.Work> readings = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      readings.add(new SettleWaiter.Work(false, 0, true, 0, i));
    }
    readings.add(new SettleWaiter.Work(false, 0, true, 0, 50));

    waiter.await(replay(readings));

    assertTrue(clock.nanos >= Duration.ofMillis(1100).toNanos(), "grace counted from the last write");
  }

  @Test
  void workStillRunningAtTheTimeoutIsAClearError() {
    FakeClock clock = new FakeClock();
    SettleWaiter waiter = new SettleWaiter("rocksdb", Duration.ofSeconds(5), Duration.ofSeconds(2), clock);
    long[] written = {0};

    SettleTimeoutException e = assertThrows(SettleTimeoutException.class,
        () -> waiter.await(() -> running(written[0] += 10)));

    assertEquals("rocksdb: background flushes and compactions did not finish within 5 s"
        + " (still 0 flushes running, a compaction pending, 1 compaction running)", e.getMessage());
    assertTrue(clock.nanos >= Duration.ofSeconds(5).toNanos());
  }

  @Test
  void boundedReturnsWhenTheStoresOwnSettleReturns() throws Exception {
    AtomicBoolean settled = new AtomicBoolean();

    SettleWaiter.bounded("leveled", Duration.ofMinutes(1), () -> settled.set(true));

    assertTrue(settled.get());
  }

  @Test
  void boundedPassesOnWhatTheSettleThrew() {
    IOException e = assertThrows(IOException.class, () -> SettleWaiter.bounded("leveled", Duration.ofMinutes(1), () -> {
      throw new IOException("store /data is closed");
    }));

    assertEquals("store /data is closed", e.getMessage());
  }

  @Test
  void boundedInterruptsASettleStillWaitingAtTheTimeout() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);

    SettleTimeoutException e = assertThrows(SettleTimeoutException.class,
        () -> SettleWaiter.bounded("leveled", Duration.ofMillis(20), () -> {
          try {
            never.await();
          } catch (InterruptedException stop) {
            interrupted.countDown();
            throw new InterruptedIOException("interrupted while settling");
          }
        }));

    assertEquals("leveled: background flushes and compactions did not finish within 20 ms", e.getMessage());
    assertTrue(interrupted.await(1, TimeUnit.MINUTES), "the settle was interrupted, not left running");
  }
}
