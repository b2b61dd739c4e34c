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
  void runningPastTheRecordFails() {
    ReplayedFlushes replay = new ReplayedFlushes("store", List.of(10L), List.of());
    assertEquals(10L, replay.nextLength());
    IllegalStateException e = assertThrows(IllegalStateException.class, replay::nextLength);
    assertEquals("store recorded only 1 flushes", e.getMessage());
    assertThrows(IllegalStateException.class, () -> replay.mergedLength(5));
  }
}
