package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class EngineCountersTest {

  @Test
  void picksTheTreeShapeAndLeavesOtherCountersOut() {
    Map<String, Number> properties = new TreeMap<>(Map.of(
        "tree.depth", 4, "tree.mixed-level", 2, "tree.max-sequences", 3,
        "level.10.nodes", 7, "level.2.nodes", 5, "level.2.sequences", 11, "level.2.mean-sequences", 2.2,
        "level.2.max-sequences", 3, "level.2.bytes", 1234, "flush.count", 9));
    properties.put("scan.count", 4L);
    properties.put("scan.sequences", 10L);

    EngineCounters e = EngineCounters.of(properties);

    assertEquals(List.of("tree.depth", "tree.mixed-level", "tree.max-sequences", "level.2.nodes", "level.2.sequences",
        "level.2.mean-sequences", "level.2.max-sequences", "level.10.nodes", "scan.count", "scan.sequences"),
        List.copyOf(e.values().keySet()), "levels in numeric order, other counters left out");
    assertEquals(2, e.get(EngineCounters.MIXED_LEVEL));
    assertEquals(2.5, e.sequencesPerScan().orElseThrow(), 1e-12);
    assertEquals(List.of(new EngineCounters.Level(2, 5, 11, 2.2, 3), new EngineCounters.Level(10, 7, null, null, null)),
        e.levels());
  }

  @Test
  void picksTheMostUncachedPerLevelAfterTheScanCounters() {
    Map<String, Number> properties = new TreeMap<>(Map.of("scan.count", 2L, "scan.max-uncached-per-level", 3L,
        "level.10.scan-max-uncached", 1L, "level.2.scan-max-uncached", 3L, "level.2.bytes", 9L));

    EngineCounters e = EngineCounters.of(properties);

    assertEquals(List.of("scan.count", "scan.max-uncached-per-level", "level.2.scan-max-uncached",
        "level.10.scan-max-uncached"), List.copyOf(e.values().keySet()));
    assertTrue(e.levels().isEmpty(), "not a column of the level table");
  }

  @Test
  void picksTheWritersWaitsLast() {
    Map<String, Number> properties = new TreeMap<>(Map.of("slowdown.micros", 5L, "stall.micros", 2_500_000L,
        "tree.depth", 3, "flush.count", 1));

    EngineCounters e = EngineCounters.of(properties);

    assertEquals(List.of("tree.depth", "stall.micros", "slowdown.micros"), List.copyOf(e.values().keySet()));
    assertEquals(2_500_000L, e.get(EngineCounters.STALL_MICROS));
  }

  @Test
  void picksHBasesHeldBackWritesAfterTheWritersWaits() {
    Map<String, Number> properties = new TreeMap<>(Map.of("flush-wait.micros", 7L, "hbase.blocked-requests", 0L,
        "hbase.updates-blocked.micros", 0L, "stall.micros", 1L, "hbase.other", 2));

    EngineCounters e = EngineCounters.of(properties);

    assertEquals(List.of("stall.micros", "hbase.updates-blocked.micros", "hbase.blocked-requests", "flush-wait.micros"),
        List.copyOf(e.values().keySet()));
    assertEquals(0L, e.get(EngineCounters.HBASE_BLOCKED_REQUESTS), "a zero is kept: nothing was held back");
  }

  @Test
  void picksTheStallCausesAfterTheTotalAndReportsThoseThatStalled() {
    Map<String, Number> properties = new TreeMap<>(Map.of("stall.micros", 3_000_000L,
        "stall.flush-waits-for-tree.micros", 2_000_000L, "stall.flush-running.micros", 1_000_000L,
        "stall.level0-full.micros", 0L, "stall.other.micros", 5L));

    EngineCounters e = EngineCounters.of(properties);

    assertEquals(List.of("stall.micros", "stall.level0-full.micros", "stall.flush-waits-for-tree.micros",
        "stall.flush-running.micros"), List.copyOf(e.values().keySet()));
    assertEquals(Map.of(io.iam.core.engine.StallCause.FLUSH_WAITS_FOR_TREE, 2_000_000L,
        io.iam.core.engine.StallCause.FLUSH_RUNNING, 1_000_000L), e.stallMicrosByCause());
    EngineCounters withGc = e.with(EngineCounters.GC_PAUSE_MICROS, 40_000L);
    assertEquals(40_000L, withGc.get(EngineCounters.GC_PAUSE_MICROS));
    assertNull(e.get(EngineCounters.GC_PAUSE_MICROS), "with() leaves the original as it was");
  }

  @Test
  void absentKeysAreNoError() {
    EngineCounters none = EngineCounters.of(Map.of("flush.count", 3));
    assertTrue(none.values().isEmpty());
    assertTrue(none.levels().isEmpty());
    assertTrue(none.sequencesPerScan().isEmpty());
    assertNull(none.get(EngineCounters.DEPTH));
    assertEquals(EngineCounters.NONE, EngineCounters.of(Map.of()));
  }

  @Test
  void sequencesPerScanNeedsBothCountersAndAScan() {
    assertTrue(EngineCounters.of(Map.of("scan.count", 0, "scan.sequences", 0)).sequencesPerScan().isEmpty());
    assertTrue(EngineCounters.of(Map.of("scan.count", 3)).sequencesPerScan().isEmpty());
    assertTrue(EngineCounters.of(Map.of("scan.sequences", 3)).sequencesPerScan().isEmpty());
  }

  @Test
  void levelsWithOnlyZerosAreNotListed() {
    // Today's leveled engine lists level.N.sequences for every level, empty ones with 0.
    EngineCounters e = EngineCounters.of(Map.of("level.0.sequences", 0, "level.1.sequences", 4, "level.5.sequences", 0));

    assertEquals(3, e.values().size());
    assertEquals(List.of(new EngineCounters.Level(1, null, 4, null, null)), e.levels());
  }
}
