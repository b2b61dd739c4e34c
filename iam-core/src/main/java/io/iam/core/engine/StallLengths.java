package io.iam.core.engine;

import io.iam.core.engine.seam.StoreCounters;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * How long single writes stood still, per {@link StallCause}: how many writes waited for the cause,
 * how many of those waited at least each of {@link StallCause#WAIT_BOUNDS_MILLIS}, and the longest
 * wait. A write's wait for a cause is all the time it stood still for that cause before it found
 * room in the memtable, however many times it woke up meanwhile; a write that waited for two causes
 * counts once for each. Thread-safe.
 */
final class StallLengths {

  private final LongAdder[] waits = StoreCounters.adders(StallCause.values().length);
  private final LongAdder[][] atLeast = new LongAdder[StallCause.values().length][];
  private final LongAccumulator[] longestNanos = new LongAccumulator[StallCause.values().length];

  StallLengths() {
    for (int i = 0; i < atLeast.length; i++) {
      atLeast[i] = StoreCounters.adders(StallCause.WAIT_BOUNDS_MILLIS.size());
      longestNanos[i] = new LongAccumulator(Math::max, 0);
    }
  }

  /** One write's waits: {@code nanosByCause[cause.ordinal()]} for each cause, 0 where it did not wait. */
  void record(long[] nanosByCause) {
    for (StallCause cause : StallCause.values()) {
      long nanos = nanosByCause[cause.ordinal()];
      if (nanos <= 0) {
        continue;
      }
      int c = cause.ordinal();
      waits[c].increment();
      for (int b = 0; b < StallCause.WAIT_BOUNDS_MILLIS.size(); b++) {
        if (nanos >= StallCause.WAIT_BOUNDS_MILLIS.get(b) * 1_000_000) {
          atLeast[c][b].increment();
        }
      }
      longestNanos[c].accumulate(nanos);
    }
  }

  /** Writes that stood still for {@code cause}. */
  long waits(StallCause cause) {
    return waits[cause.ordinal()].sum();
  }

  /** Of {@link #waits}, those that stood still at least {@code WAIT_BOUNDS_MILLIS.get(bound)} ms. */
  long atLeast(StallCause cause, int bound) {
    return atLeast[cause.ordinal()][bound].sum();
  }

  /** The longest wait of one write for {@code cause}, in microseconds; 0 if none waited. */
  long longestMicros(StallCause cause) {
    return longestNanos[cause.ordinal()].get() / 1000;
  }
}
