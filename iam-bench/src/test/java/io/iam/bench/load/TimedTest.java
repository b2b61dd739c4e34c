package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.iam.bench.util.Progress;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** {@link Timed} on one thread and on several. */
class TimedTest {

  private static Progress silent() {
    return Progress.over("test", 0, " ops", 1, false);
  }

  @Test
  void eachThreadRunsEveryNthOperationInOrderOnAThreadOfItsOwn() throws IOException {
    int threads = 3;
    long count = 10_001;
    List<List<Long>> ran = new ArrayList<>();
    List<Set<Thread>> ranOn = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      ran.add(new ArrayList<>());
      ranOn.add(ConcurrentHashMap.newKeySet());
    }

    Timed timed = Timed.run(count, threads, t -> n -> () -> {
      ran.get(t).add(n);
      ranOn.get(t).add(Thread.currentThread());
    }, silent());

    assertEquals(count, timed.ops());
    assertEquals(count, timed.latency().count(), "every operation timed once, the threads' latencies merged");
    Set<Thread> all = new HashSet<>();
    for (int t = 0; t < threads; t++) {
      List<Long> expected = new ArrayList<>();
      for (long n = t; n < count; n += threads) {
        expected.add(n);
      }
      assertEquals(expected, ran.get(t), "thread " + t);
      assertEquals(1, ranOn.get(t).size(), "thread " + t + " ran on " + ranOn.get(t));
      all.addAll(ranOn.get(t));
    }
    assertEquals(threads, all.size(), "a thread each");
    assertFalse(all.contains(Thread.currentThread()), "none on the caller's thread");
  }

  @Test
  void oneThreadRunsOnTheCallersThread() throws IOException {
    List<Long> ran = new ArrayList<>();
    Set<Thread> ranOn = new HashSet<>();

    Timed timed = Timed.run(5, n -> () -> {
      ran.add(n);
      ranOn.add(Thread.currentThread());
    }, silent());

    assertEquals(List.of(0L, 1L, 2L, 3L, 4L), ran);
    assertEquals(Set.of(Thread.currentThread()), ranOn);
    assertEquals(5, timed.latency().count());
  }

  @Test
  void aFailureStopsEveryThreadAndIsThrownAsItWas() {
    IOException failure = new IOException("put 7 failed");
    // Without the stop the other threads would run (practically) forever.
    IOException thrown = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertThrows(IOException.class,
        () -> Timed.run(Long.MAX_VALUE, 4, t -> n -> () -> {
          if (n == 7) {
            throw failure;
          }
        }, silent())));

    assertSame(failure, thrown);
  }

  @Test
  void anUncheckedFailureStaysUnchecked() {
    IllegalStateException failure = new IllegalStateException("bad value");
    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> Timed.run(100, 2, t -> n -> () -> {
      if (n == 51) {
        throw failure;
      }
    }, silent()));
    assertSame(failure, thrown);
  }

  @Test
  void noThreadsIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> Timed.run(10, 0, t -> n -> () -> {}, silent()));
  }
}
