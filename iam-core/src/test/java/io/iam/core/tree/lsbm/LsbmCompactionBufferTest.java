package io.iam.core.tree.lsbm;

import io.iam.core.manifest.BufferDiff;
import io.iam.core.manifest.BufferFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.ValueType;
import io.iam.core.manifest.FileMeta;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The compaction buffer's pure rules on hand-made shapes: a merge keeps its inputs from both
 * levels and records them as the outputs' sources, newest data first; inputs whose sources are all
 * kept are replaced by them; removed sources stay as markers; the pace, freezing, retiring and the
 * trim's choice.
 */
class LsbmCompactionBufferTest {

  /** S_1 = 1000 bytes, S_2 = 10,000; B_i may hold all of S_i; freeze on 10% shrink; trim under 50%. */
  private static final LsbmConfig CONFIG = new LsbmConfig(new long[] {0, 1000, 10_000, 100_000}, 1.0, 0.1, 0.5);

  private static byte[] u(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A file of user keys [lo, hi], {@code size} bytes, sequences up to {@code seq}. */
  private static FileMeta file(long number, String lo, String hi, long size, long seq) {
    return new FileMeta(number, size, 1, 10, InternalKey.encode(u(lo), seq, ValueType.PUT),
        InternalKey.encode(u(hi), seq - 1, ValueType.PUT), seq - 1, seq);
  }

  private static CompactionBuffer empty() {
    return CompactionBuffer.empty(BytewiseComparator.INSTANCE, 4);
  }

  /** A merge of {@code upper} (level {@code level}) with {@code lower} into {@code outputs}, read == written. */
  private static BufferChange merge(int level, List<FileMeta> upper, List<FileMeta> lower, List<FileMeta> outputs) {
    List<FileMeta> all = new ArrayList<>(upper);
    all.addAll(lower);
    long bytes = all.stream().mapToLong(FileMeta::fileSize).sum();
    return BufferedMerge.plan(level, upper, lower, outputs, true, Map.of(), bytes, bytes, CONFIG);
  }

  /** C_2's file [a, z] (number 3), merged from C_1's file 1 [a, m] and C_2's file 2 [a, z]. */
  private static final FileMeta O1 = file(3, "a", "z", 200, 20);

  private static CompactionBuffer firstMerge() {
    return empty().apply(merge(1, List.of(file(1, "a", "m", 100, 20)), List.of(file(2, "a", "z", 100, 10)), List.of(O1)));
  }

  private static List<Long> numbers(List<BufferFile> l) {
    return l.stream().map(BufferFile::fileNumber).toList();
  }

  private static List<Long> numbers(CompactionBuffer b, int level) {
    return numbers(b.files(level));
  }

  @Test
  void aMergeKeepsItsInputsFromBothLevelsAsTheOutputsSources() {
    FileMeta up = file(1, "d", "k", 100, 50);
    FileMeta low1 = file(2, "a", "f", 100, 10);
    FileMeta low2 = file(3, "g", "p", 100, 10);
    FileMeta out1 = file(4, "a", "h", 150, 50);
    FileMeta out2 = file(5, "i", "p", 150, 50);
    CompactionBuffer b = empty().apply(merge(1, List.of(up), List.of(low1, low2), List.of(out1, out2)));
    assertEquals(List.of(3L, 2L, 1L), numbers(b, 2), "every input is kept in B_2, none deleted");
    assertEquals(3, b.outcome().appended());
    assertEquals(List.of(1L, 2L, 3L), numbers(b.sources(4)), "the upper file (newer data) first, then the lower ones");
    assertEquals(List.of(1L, 3L), numbers(b.sources(5)), "only the inputs overlapping the output");
    assertEquals(List.of(1L, 2L), numbers(b.sourcesCovering(4, u("e"))));
    assertEquals(List.of(3L), numbers(b.sourcesCovering(5, u("m"))));
    assertTrue(b.sourcesCovering(4, u("0")).isEmpty(), "no source covers a key outside them");
    assertNull(b.sourcesCovering(2, u("e")), "a file without sources is read itself");
  }

  @Test
  void level0InputsAreOrderedNewestDataFirst() {
    FileMeta older = file(6, "a", "z", 100, 30);
    FileMeta newer = file(7, "a", "z", 100, 50);
    FileMeta low = file(8, "a", "z", 100, 10);
    FileMeta out = file(9, "a", "z", 300, 50);
    CompactionBuffer b = empty().apply(merge(0, List.of(older, newer), List.of(low), List.of(out)));
    assertEquals(List.of(7L, 6L, 8L), numbers(b.sourcesCovering(9, u("k"))));
    assertEquals(3, b.files(1).size());
  }

  @Test
  void anInputWhoseSourcesAreAllKeptIsReplacedByThem() {
    CompactionBuffer b = firstMerge();
    FileMeta u2 = file(4, "c", "f", 100, 40);
    FileMeta o2 = file(5, "a", "z", 250, 40);
    b = b.apply(merge(1, List.of(u2), List.of(O1), List.of(o2)));
    assertEquals(List.of(4L, 1L, 2L), numbers(b.sources(5)),
        "o1 was exactly the merge of u1 and w1: reads of o2 go to them, where the cached blocks are");
    assertFalse(b.contains(3), "o1 itself is not kept");
    assertTrue(b.sources(3).isEmpty(), "o1 left the level: its list went with it");
    assertEquals(List.of(4L, 2L, 1L), numbers(b, 2));
  }

  /**
   * A level-0 file merged into one file of C_1 also holds its neighbours' keys. Those moved on
   * through other files, and newer versions may sit below by now: through this file, it must
   * answer only for this file's range.
   */
  @Test
  void aSourceAnswersOnlyForTheRangeOfTheFileItCameThrough() {
    FileMeta l0 = file(1, "a", "z", 100, 30);
    FileMeta y1 = file(2, "a", "m", 50, 30);
    FileMeta y2 = file(3, "n", "z", 50, 30);
    CompactionBuffer b = empty().apply(merge(0, List.of(l0), List.of(), List.of(y1, y2)));
    assertEquals(List.of(1L), numbers(b.sourcesCovering(3, u("p"))));
    FileMeta w = file(4, "a", "z", 500, 60); // C_2 got newer versions of n..z since, through y2
    FileMeta o = file(5, "a", "z", 550, 60);
    b = b.apply(merge(1, List.of(y1), List.of(w), List.of(o)));
    assertEquals(List.of(1L, 4L), numbers(b.sourcesCovering(5, u("c"))), "through y1, file 1 answers for a..m");
    assertEquals(List.of(4L), numbers(b.sourcesCovering(5, u("p"))),
        "file 1 holds p too, but an older version than w: it must not answer there");
    BufferFile first = b.sources(5).get(0);
    assertEquals("m", new String(first.hi(), StandardCharsets.UTF_8), "narrowed to y1's range");
  }

  @Test
  void aRemovedSourceStaysAsAMarkerAndItsOwnerIsKeptWhenItMerges() {
    CompactionBuffer b = firstMerge();
    b = b.apply(BufferChange.removing(List.of(new BufferDiff.Removal(2, 1)), CONFIG));
    assertEquals(1, b.outcome().trimmed());
    List<BufferFile> covering = b.sourcesCovering(3, u("c"));
    assertEquals(List.of(1L, 2L), numbers(covering), "the removed file is still listed, as a marker");
    assertFalse(b.contains(1));
    assertTrue(b.contains(2));
    FileMeta u2 = file(4, "n", "p", 100, 40);
    FileMeta o2 = file(5, "a", "z", 250, 40);
    b = b.apply(merge(1, List.of(u2), List.of(O1), List.of(o2)));
    assertTrue(b.contains(3), "o1 cannot be rebuilt from its sources any more: it is kept itself");
    assertEquals(List.of(4L, 3L), numbers(b.sources(5)));
    assertEquals(List.of(1L, 2L), numbers(b.sources(3)), "o1 keeps its list: w1 still answers where no marker covers");
    // what a read of c walks: o2's index, then o1's own, with the marker resolved as removed
    SourceIndex.Source[] throughO2 = b.sourceIndex(5).covering(u("c"));
    assertEquals(1, throughO2.length, "u2 [n, p] does not cover c");
    assertEquals(3L, throughO2[0].file().fileNumber());
    assertTrue(throughO2[0].present());
    SourceIndex.Source[] throughO1 = throughO2[0].sources().covering(u("c"));
    assertEquals(List.of(1L, 2L), List.of(throughO1[0].file().fileNumber(), throughO1[1].file().fileNumber()));
    assertFalse(throughO1[0].present(), "the removed file is a marker");
    assertTrue(throughO1[1].present());
    assertNull(throughO1[1].sources(), "w1 has no sources: it is read itself");
    assertNull(b.sourceIndex(2));
    Map<Long, TrimPlanner.Residency> cold = Map.of();
    assertFalse(TrimPlanner.plan(b, cold, b.epoch(), 0.5).contains(new BufferDiff.Removal(2, 3)),
        "a file read through its sources is not judged by its own residency");
  }

  @Test
  void filesNoListRefersToAreRetiredAndEmptyListsDropped() {
    CompactionBuffer b = firstMerge();
    b = b.apply(BufferChange.removing(List.of(new BufferDiff.Removal(2, 1), new BufferDiff.Removal(2, 2)), CONFIG));
    assertNull(b.sourcesCovering(3, u("c")), "with none of its sources left, o1 is read itself");
    // a merge whose output is empty (everything dropped): its inputs are referenced by nothing
    FileMeta u2 = file(4, "a", "c", 100, 40);
    FileMeta w2 = file(5, "a", "c", 100, 30);
    b = b.apply(merge(2, List.of(u2), List.of(w2), List.of()));
    assertTrue(b.files(3).isEmpty(), "nothing refers to them: retired at once: " + b);
    assertEquals(2, b.outcome().retired());
  }

  @Test
  void aTrivialMoveKeepsTheFilesSources() {
    FileMeta u1 = file(1, "a", "m", 100, 20);
    FileMeta o1 = file(3, "a", "m", 100, 20);
    CompactionBuffer b = empty().apply(merge(1, List.of(u1), List.of(), List.of(o1)));
    b = b.apply(BufferedMerge.plan(2, List.of(o1), List.of(), List.of(), false, Map.of(), 0, 0, CONFIG));
    assertEquals(List.of(1L), numbers(b.sources(3)), "the moved file is unchanged, and so are its sources");
    assertEquals(0, b.outcome().appended());
  }

  @Test
  void theBufferIsPacedSmallestMaximumKeyFirst() {
    CompactionBuffer b = empty();
    b = b.apply(merge(0, List.of(file(1, "m", "p", 400, 10)), List.of(), List.of(file(11, "m", "p", 400, 10))));
    b = b.apply(merge(0, List.of(file(2, "a", "c", 400, 20)), List.of(), List.of(file(12, "a", "c", 400, 20))));
    b = b.apply(merge(0, List.of(file(3, "x", "z", 400, 30)), List.of(), List.of(file(13, "x", "z", 400, 30))));
    assertEquals(List.of(3L, 1L), numbers(b, 1), "1200 bytes > S_1 = 1000: the file with the smallest maximum key went");
    assertEquals(1, b.outcome().paced());
    assertNull(b.sourcesCovering(12, u("b")), "with its only source gone, the output is read itself");
    assertFalse(b.contains(2));
  }

  @Test
  void repeatedDataFreezesTheListUntilTheLevelTurnsOver() {
    FileMeta f = file(1, "a", "z", 500, 10);
    FileMeta out = file(20, "a", "z", 300, 10);
    // read 1000 bytes (f and the overlapping C_1 data), wrote 600: keys were overwritten
    CompactionBuffer b = empty().apply(BufferedMerge.plan(0, List.of(f), List.of(), List.of(out), true, Map.of(), 1000,
        600, CONFIG));
    assertTrue(b.frozen(1));
    assertTrue(b.files(1).isEmpty(), "a frozen list takes nothing");
    assertNull(b.sourcesCovering(20, u("k")), "the output has no sources: it is read itself");
    assertEquals(1, b.outcome().frozenMerges());
    // C_1 (S_1 = 1000) moves 1000 bytes down: B_1 unfreezes
    b = b.apply(merge(1, List.of(file(2, "a", "m", 600, 5)), List.of(), List.of(file(21, "a", "m", 600, 5))));
    assertTrue(b.frozen(1));
    b = b.apply(merge(1, List.of(file(3, "n", "z", 400, 5)), List.of(), List.of(file(22, "n", "z", 400, 5))));
    assertFalse(b.frozen(1));
    b = b.apply(merge(0, List.of(file(4, "a", "z", 100, 50)), List.of(), List.of(file(23, "a", "z", 100, 50))));
    assertEquals(List.of(4L), numbers(b, 1));
  }

  @Test
  void aTrimRemovesColdFilesButSparesNewOnes() {
    CompactionBuffer b = empty();
    b = b.apply(merge(0, List.of(file(1, "a", "c", 100, 10)), List.of(), List.of(file(11, "a", "c", 100, 10))));
    b = b.apply(merge(0, List.of(file(2, "d", "f", 100, 20)), List.of(), List.of(file(12, "d", "f", 100, 20))));
    long epoch = b.epoch();
    b = b.apply(merge(0, List.of(file(3, "g", "i", 100, 30)), List.of(), List.of(file(13, "g", "i", 100, 30))));
    Map<Long, TrimPlanner.Residency> residency = Map.of(
        1L, new TrimPlanner.Residency(1, 10), 2L, new TrimPlanner.Residency(9, 10), 3L, new TrimPlanner.Residency(0, 10));
    List<BufferDiff.Removal> removals = TrimPlanner.plan(b, residency, epoch, 0.5);
    assertEquals(List.of(new BufferDiff.Removal(1, 1)), removals, "file 3 is new, file 2 is hot");
    b = b.apply(BufferChange.removing(removals, CONFIG));
    assertEquals(List.of(3L, 2L), numbers(b, 1));
    assertEquals(1, b.outcome().trimmed());
    assertTrue(TrimPlanner.plan(b, residency, b.epoch(), 0.0).isEmpty(), "threshold 0 keeps everything");
  }

  /** Gear levels: S_1 = 1000 bytes (levels 1 and 2), S_2 = 10,000 (levels 3 and 4); caps far away. */
  private static final LsbmConfig GEAR = new LsbmConfig(new long[] {0, 1000, 1000, 10_000, 10_000, 100_000}, 10.0, 0.1,
      0.5, true);

  private static BufferChange gearMerge(int level, List<FileMeta> upper, List<FileMeta> outputs, long in, long out) {
    return BufferedMerge.plan(level, upper, List.of(), outputs, true, Map.of(), in, out, GEAR);
  }

  @Test
  void aGearMoveMakesB1TheDrainingListWhichGoesAtThePaceC1PrimeDrains() {
    FileMeta f1 = file(1, "a", "h", 400, 10);
    FileMeta f2 = file(2, "i", "z", 400, 20);
    FileMeta x1 = file(11, "a", "h", 500, 10);
    FileMeta x2 = file(12, "i", "z", 500, 20);
    CompactionBuffer b = CompactionBuffer.empty(BytewiseComparator.INSTANCE, 6);
    b = b.apply(gearMerge(0, List.of(f1), List.of(x1), 400, 400));
    b = b.apply(gearMerge(0, List.of(f2), List.of(x2), 400, 400));
    assertEquals(List.of(2L, 1L), numbers(b, 1));
    CompactionBuffer before = b;
    b = b.apply(BufferChange.shift(1, List.of(x1, x2), GEAR));
    assertTrue(b.files(1).isEmpty(), "a new, empty B_1 starts");
    assertEquals(List.of(2L, 1L), numbers(b, 2), "B_1 became B_1', in the same order");
    assertEquals(List.of(1L), numbers(b.sources(11)), "C_1' files keep their sources");
    assertEquals(800, b.capBytes(2, GEAR), "all of C_1' is left: all of B_1' may stay");
    // the move is recorded as each file leaving level 1 and entering level 2, and replays so
    BufferDiff d = b.diff(before);
    assertEquals(List.of(new BufferDiff.Removal(1, 2), new BufferDiff.Removal(1, 1)), d.removed());
    assertEquals(List.of(2L, 1L), d.added().stream().map(a -> a.file().fileNumber()).toList());
    assertTrue(d.added().stream().allMatch(a -> a.level() == 2));
    CompactionBuffer replayed = before.replay(d);
    assertTrue(replayed.files(1).isEmpty());
    assertEquals(List.of(2L, 1L), numbers(replayed, 2));
    // C_1' drains by key: half of its bytes gone, half of B_1' goes, smallest maximum key first
    b = b.apply(gearMerge(2, List.of(x1), List.of(file(21, "a", "h", 500, 10)), 500, 500));
    assertEquals(400, b.capBytes(2, GEAR));
    assertEquals(List.of(2L), numbers(b, 2));
    assertEquals(1, b.outcome().paced());
    b = b.apply(gearMerge(2, List.of(x2), List.of(file(22, "i", "z", 500, 20)), 500, 500));
    assertTrue(b.files(2).isEmpty(), "C_1' is empty, and so is B_1'");
  }

  @Test
  void aGearMoveUnfreezesTheList() {
    FileMeta x1 = file(11, "a", "z", 1000, 10);
    // read 1000 bytes, wrote 600: repeated data froze B_1
    CompactionBuffer b = CompactionBuffer.empty(BytewiseComparator.INSTANCE, 6)
        .apply(gearMerge(0, List.of(file(1, "a", "z", 500, 10)), List.of(x1), 1000, 600));
    assertTrue(b.frozen(1));
    b = b.apply(gearMerge(0, List.of(file(2, "a", "z", 500, 20)), List.of(file(12, "a", "z", 1000, 20)), 1000, 1000));
    assertTrue(b.frozen(1), "with gear levels, bytes alone do not unfreeze B_1");
    b = b.apply(BufferChange.shift(1, List.of(file(12, "a", "z", 1000, 20)), GEAR));
    assertFalse(b.frozen(1), "C_1 moved down: B_1 serves again (section 4.1)");
  }
}
