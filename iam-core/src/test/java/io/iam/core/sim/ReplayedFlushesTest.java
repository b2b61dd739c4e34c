package io.iam.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplayedFlushesTest {

  private static final MergePolicy CONSTANT_2 =
      MergePolicies.create("constant", Map.of("max-components", "2"));

  @Test
  void replaysFlushesAndTheLengthsMergesWrote() {
    // constant k=2 merges the flush and both older components at flush 3, and not at flush 4.
    List<Long> flushes = List.of(10L, 20L, 30L, 40L);
    List<Long> merges = List.of(55L);
    SimulationResult r = new Simulator(CONSTANT_2, new ReplayedFlushes("store", flushes, merges),
        Accounting.FLUSH_THEN_MERGE, 1, null).run(flushes.size());
    assertEquals(100, r.bytesFlushed());
    // Each flush is written, then the merge writes what the store recorded, not 10 + 20 + 30.
    assertEquals(100 + 55, r.bytesWritten());
    assertEquals(1, r.merges());
  }

  @Test
  void withoutMergeLengthsMergesWriteTheSumOfTheirInputs() {
    List<Long> flushes = List.of(10L, 20L, 30L, 40L);
    SimulationResult r = new Simulator(CONSTANT_2, new ReplayedFlushes("store", flushes, null),
        Accounting.FLUSH_THEN_MERGE, 1, null).run(flushes.size());
    assertEquals(100 + 60, r.bytesWritten());
  }

  @Test
  void withFixedBytesAMergeWritesThemOnceInsteadOfOncePerInput() {
    // constant k=2 merges the three components at flush 3: 10 + 20 + 30 less 2 × 4 fixed bytes.
    List<Long> flushes = List.of(10L, 20L, 30L, 40L);
    SimulationResult r = new Simulator(CONSTANT_2, ReplayedFlushes.withFixedBytes("store", flushes, 4),
        Accounting.FLUSH_THEN_MERGE, 1, null).run(flushes.size());
    assertEquals(100 + 52, r.bytesWritten());
    // Negative fixed bytes: the merge writes more than its inputs.
    SimulationResult more = new Simulator(CONSTANT_2, ReplayedFlushes.withFixedBytes("store", flushes, -4),
        Accounting.FLUSH_THEN_MERGE, 1, null).run(flushes.size());
    assertEquals(100 + 68, more.bytesWritten());
    assertEquals(1, ReplayedFlushes.withFixedBytes("store", flushes, 100).mergedLength(30, 2));
  }

  @Test
  void aSizeDrivenPolicySeesTheSmallerMergedComponentAndDecidesOnIt() {
    // bigtable k=2: with three components, the flush merges with the newer ones from the oldest
    // component no longer than all newer ones together, else with the newest one.
    MergePolicy bigtable = MergePolicies.create("bigtable", Map.of("max-components", "2"));
    List<Long> flushes = List.of(100L, 100L, 100L, 100L, 95L, 100L);
    // Sums: flush 3 merges all (300), flush 5 the newest two (195), flush 6 the newest two, as
    // 300 > 195 + 100: [300, 295].
    SimulationResult sum = new Simulator(bigtable, new ReplayedFlushes("store", flushes, null),
        Accounting.FLUSH_THEN_MERGE, 1, null).run(flushes.size());
    assertEquals(595 + 300 + 195 + 295, sum.bytesWritten());
    // 10 fixed bytes: 280, then 185, then 280 <= 185 + 100, so flush 6 merges all three (545).
    SimulationResult fixed = new Simulator(bigtable, ReplayedFlushes.withFixedBytes("store", flushes, 10),
        Accounting.FLUSH_THEN_MERGE, 1, null).run(flushes.size());
    assertEquals(595 + 280 + 185 + 545, fixed.bytesWritten());
    assertEquals(10.0 / 6, sum.averageComponents(), 1e-9);
    assertEquals(9.0 / 6, fixed.averageComponents(), 1e-9);
  }

  @Test
  void runningPastTheRecordFails() {
    ReplayedFlushes replay = new ReplayedFlushes("store", List.of(10L), List.of());
    assertEquals(10L, replay.nextLength());
    IllegalStateException e = assertThrows(IllegalStateException.class, replay::nextLength);
    assertEquals("store recorded only 1 flushes", e.getMessage());
    assertThrows(IllegalStateException.class, () -> replay.mergedLength(5, 2));
  }
}
