package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers' stalls are counted by cause, and the causes add up to the total: a leveled store whose
 * level 0 fills faster than its rate-limited compactions empty it stalls for {@link
 * StallCause#LEVEL0_FULL}; an LSA store whose rate-limited node jobs cannot free level 1 as fast as
 * memtables fill stalls while its flush waits for the tree ({@link StallCause#FLUSH_WAITS_FOR_TREE}),
 * and counts that wait.
 */
class StallCauseTest {

  @TempDir
  Path dir;

  private static void load(IamStore store, int records) throws IOException {
    byte[] value = new byte[1000];
    for (int i = 0; i < records; i++) {
      Arrays.fill(value, (byte) i);
      store.put(String.format("key-%08d", (i * 7919) % records).getBytes(StandardCharsets.US_ASCII), value);
    }
  }

  private static void assertCausesAddUp(Statistics s) {
    long sum = 0;
    for (StallCause cause : StallCause.values()) {
      sum += s.stallMicros(cause);
      assertEquals(s.stallMicros(cause), s.asMap().get(cause.property()).longValue(), cause.property());
    }
    // each figure is rounded down to whole microseconds on its own
    assertTrue(Math.abs(s.stallMicros() - sum) <= StallCause.values().length,
        "causes " + sum + " µs, total " + s.stallMicros() + " µs");
  }

  /** The writes that stood still for {@code cause}: some did, none longer than all of them together. */
  private static void assertWaitsOf(Statistics s, StallCause cause) {
    long waits = s.stallWaits(cause);
    long longest = s.stallLongestMicros(cause);
    assertTrue(waits > 0, cause + " stalled writes, so some write waited for it");
    assertTrue(longest > 0 && longest <= s.stallMicros(cause) + 1, "longest " + longest + " µs of " + s.stallMicros(cause));
    assertTrue(longest * waits >= s.stallMicros(cause) - waits, "the longest wait is at least the mean one");
    assertTrue(waits >= s.stallWaitsAtLeast(cause, 10) && s.stallWaitsAtLeast(cause, 10) >= s.stallWaitsAtLeast(cause, 100)
        && s.stallWaitsAtLeast(cause, 100) >= s.stallWaitsAtLeast(cause, 500), cause.waitsProperty());
    assertEquals(waits, s.asMap().get(cause.waitsProperty()).longValue());
    assertEquals(longest, s.asMap().get(cause.longestProperty()).longValue());
    assertEquals(s.stallWaitsAtLeast(cause, 100), s.asMap().get(cause.waitsAtLeastProperty(100)).longValue());
  }

  @Test
  void aFullLevelZeroStallsWritersForThatCause() throws IOException {
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(Map.of("tree", "leveled", "memtable-size", "64KiB",
        "max-immutable-memtables", "1", "l0-compaction-trigger", "2", "l0-slowdown-trigger", "3",
        "l0-stop-trigger", "3", "compaction-rate-limit", "512KiB")))) {
      load(store, 600);
      Statistics s = store.statistics();
      assertTrue(s.stallMicros(StallCause.LEVEL0_FULL) > 0, store.describe());
      assertEquals(0, s.stallMicros(StallCause.FLUSH_WAITS_FOR_TREE), "a leveled flush never waits for the tree");
      assertEquals(0, s.flushWaitMicros());
      assertCausesAddUp(s);
      assertWaitsOf(s, StallCause.LEVEL0_FULL);
      assertEquals(0, s.stallWaits(StallCause.FLUSH_WAITS_FOR_TREE));
    }
  }

  @Test
  void aFlushWaitingForLevelOneStallsWritersForThatCause() throws IOException {
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(Map.of("tree", "lsa", "memtable-size", "64KiB",
        "max-immutable-memtables", "1", "fanout", "2", "compaction-rate-limit", "1MiB")))) {
      load(store, 1000);
      Statistics s = store.statistics();
      assertTrue(s.flushWaitMicros() > 0, "the flush waited for level 1: " + store.describe());
      assertTrue(s.stallMicros(StallCause.FLUSH_WAITS_FOR_TREE) > 0, store.describe());
      assertEquals(0, s.stallMicros(StallCause.LEVEL0_FULL), "a node tree has no level-0 files");
      assertCausesAddUp(s);
      assertWaitsOf(s, StallCause.FLUSH_WAITS_FOR_TREE);
    }
  }
}
