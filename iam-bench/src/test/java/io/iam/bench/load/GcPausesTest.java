package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The collections a load ran into are counted from its start, and the longest is no longer than all of them. */
class GcPausesTest {

  @Test
  void countsTheCollectionsSinceItsStartAndTheLongestIsNoMoreThanTheirTotal() throws InterruptedException {
    try (GcPauses gc = GcPauses.start()) {
      long before = gc.collections();
      System.gc();
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (gc.collections() == before && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      Thread.sleep(100); // notifications arrive on their own thread, after the collection
      assertTrue(gc.collections() >= 1, "a requested full collection was counted");
      // the longest comes from its notification's duration, the total from the collectors' own
      // accounting: both in whole milliseconds, they may differ by one per collection
      assertTrue(gc.longestMicros() <= gc.micros() + 1000 * gc.collections(),
          gc.longestMicros() + " µs longest, " + gc.micros() + " µs in all");
    }
  }
}
