package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A write's waits are counted once per cause it waited for, against the 10, 100 and 500 ms bounds
 * (a wait of exactly a bound counts as at least it), with the longest kept per cause.
 */
class StallLengthsTest {

  private static long[] waits(long levelZeroMillis, long treeMillis, long runningMillis) {
    long[] w = new long[StallCause.values().length];
    w[StallCause.LEVEL0_FULL.ordinal()] = levelZeroMillis * 1_000_000;
    w[StallCause.FLUSH_WAITS_FOR_TREE.ordinal()] = treeMillis * 1_000_000;
    w[StallCause.FLUSH_RUNNING.ordinal()] = runningMillis * 1_000_000;
    return w;
  }

  @Test
  void eachWriteCountsOncePerCauseAgainstEachBoundAndTheLongestIsKept() {
    StallLengths s = new StallLengths();
    s.record(waits(0, 5, 0));
    s.record(waits(0, 10, 0));
    s.record(waits(0, 150, 99));
    s.record(waits(0, 600, 0));

    assertEquals(4, s.waits(StallCause.FLUSH_WAITS_FOR_TREE));
    assertEquals(3, s.atLeast(StallCause.FLUSH_WAITS_FOR_TREE, 0), "10 ms and up");
    assertEquals(2, s.atLeast(StallCause.FLUSH_WAITS_FOR_TREE, 1), "100 ms and up");
    assertEquals(1, s.atLeast(StallCause.FLUSH_WAITS_FOR_TREE, 2), "500 ms and up");
    assertEquals(600_000, s.longestMicros(StallCause.FLUSH_WAITS_FOR_TREE));

    assertEquals(1, s.waits(StallCause.FLUSH_RUNNING), "the write that waited for two causes counts for each");
    assertEquals(1, s.atLeast(StallCause.FLUSH_RUNNING, 0));
    assertEquals(0, s.atLeast(StallCause.FLUSH_RUNNING, 1));
    assertEquals(99_000, s.longestMicros(StallCause.FLUSH_RUNNING));

    assertEquals(0, s.waits(StallCause.LEVEL0_FULL));
    assertEquals(0, s.longestMicros(StallCause.LEVEL0_FULL));
  }
}
