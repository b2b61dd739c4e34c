package io.iam.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ledger's flush counting and its once-per-flush rule, without a host engine. */
class FlushLedgerTest {

  private static StoredComponent flushed(String name, long size) {
    return new StoredComponent(name, size, Set.of(), false);
  }

  @Test
  void flushedFilesCountOneEachAndCompactionOutputsSumTheirInputs() {
    FlushLedger ledger = new FlushLedger(100);
    List<StoredComponent> files = new ArrayList<>(List.of(flushed("a", 100), flushed("b", 100),
        flushed("c", 100)));
    StackSnapshot s = ledger.snapshot(files);
    assertEquals(3, s.flushCount());
    assertEquals(3, s.get(2).lastFlush());

    // b and c merged into d; HBase also lists the not-yet-archived inputs of earlier compactions.
    files = List.of(flushed("a", 100), new StoredComponent("d", 190, Set.of("b", "c"), false),
        flushed("e", 100));
    s = ledger.snapshot(files);
    assertEquals(4, s.flushCount());
    assertEquals(2, s.get(1).firstFlush());
    assertEquals(3, s.get(1).lastFlush());
    assertEquals(4, s.get(2).firstFlush());

    // d and e merged into f, whose event also names b and c (inputs of d): only d and e count.
    s = ledger.snapshot(List.of(flushed("a", 100),
        new StoredComponent("f", 280, Set.of("b", "c", "d", "e"), false)));
    assertEquals(4, s.flushCount());
    assertEquals(2, s.get(1).firstFlush());
    assertEquals(4, s.get(1).lastFlush());
  }

  @Test
  void unknownCompactedFilesAreEstimatedFromTheMeanFlushedFile() {
    // A reopened store: the ledger never saw the inputs of "big".
    FlushLedger ledger = new FlushLedger(1_000_000);
    StackSnapshot s = ledger.snapshot(List.of(
        new StoredComponent("big", 1000, Set.of("gone1", "gone2"), false),
        flushed("x", 200), flushed("y", 200)));
    assertEquals(5 + 1 + 1, s.flushCount());
    assertEquals(5, s.get(0).lastFlush());

    // Without any flushed file, the memstore flush size is the unit.
    s = new FlushLedger(400).snapshot(List.of(new StoredComponent("big", 1000, Set.of("g"), false)));
    assertEquals(3, s.flushCount()); // round(1000 / 400)
  }

  @Test
  void decidesOncePerFlushAndNotWhileCompacting() {
    MergePolicy constant = MergePolicies.create("constant", Map.of("max-components", "2"));
    FlushLedger ledger = new FlushLedger(100);
    List<StoredComponent> three = List.of(flushed("a", 100), flushed("b", 100), flushed("c", 100));

    // Asking whether a compaction is needed does not use up the decision.
    assertFalse(ledger.decide(constant, three, false, false).isNone());
    MergePlan plan = ledger.decide(constant, three, true, false);
    assertEquals(MergePlan.merge(0, 2), plan);
    assertTrue(ledger.decide(constant, three, true, false).isNone(), "decided already");
    assertFalse(ledger.decide(constant, three, true, true).isNone(), "a user request asks again");

    // While a file is compacting the answer is "nothing" and the decision is not used up.
    FlushLedger busy = new FlushLedger(100);
    List<StoredComponent> compacting = List.of(new StoredComponent("a", 100, Set.of(), true),
        flushed("b", 100), flushed("c", 100));
    assertTrue(busy.decide(constant, compacting, true, false).isNone());
    assertFalse(busy.decide(constant, three, true, false).isNone());
  }

  @Test
  void aHostsOwnFlushCountsWin() {
    FlushLedger ledger = new FlushLedger(100);
    StackSnapshot s = ledger.snapshot(List.of(new StoredComponent("1-7", 50, Set.of(), false, 7),
        new StoredComponent("8-8", 500, Set.of(), false, 1)));
    assertEquals(8, s.flushCount());
    assertEquals(7, s.get(0).lastFlush());
  }

  @Test
  void anEmptyStoreNeedsNothing() {
    MergePolicy binomial = MergePolicies.create("binomial", Map.of());
    assertTrue(new FlushLedger(1).decide(binomial, List.of(), true, false).isNone());
  }
}
