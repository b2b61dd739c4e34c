package io.iam.core.tree.lsbm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.ValueType;
import io.iam.core.tree.FileMeta;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The compaction buffer's pure rules on hand-made shapes: buffered merges append, fences make
 * files unusable exactly for the keys whose newest version may have changed, the pace, freezing,
 * and the trim's choice.
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

  /** A merge of {@code f} out of level {@code level} (nothing else on that level), read == written. */
  private static BufferChange merge(int level, FileMeta f) {
    return BufferedMerge.plan(level, List.of(f), List.of(f), true, f.fileSize(), f.fileSize(), CONFIG);
  }

  private static List<Long> numbers(CompactionBuffer b, int level) {
    return b.files(level).stream().map(BufferFile::fileNumber).toList();
  }

  @Test
  void aMergedFileIsAppendedToTheNextLevelsBufferNewestFirst() {
    CompactionBuffer b = empty().apply(merge(0, file(1, "a", "m", 100, 10)));
    b = b.apply(merge(0, file(2, "c", "z", 100, 20)));
    assertEquals(List.of(2L, 1L), numbers(b, 1));
    assertEquals(List.of(2L, 1L), b.candidates(1, u("d")).stream().map(BufferFile::fileNumber).toList());
    assertEquals(List.of(1L), b.candidates(1, u("b")).stream().map(BufferFile::fileNumber).toList());
    assertTrue(b.candidates(2, u("d")).isEmpty());
    assertEquals(1, b.outcome().appended(), "the last apply appended one file");
  }

  @Test
  void level0InputsAppendedTogetherGetEpochsInSequenceOrder() {
    FileMeta newer = file(7, "a", "z", 100, 50);
    FileMeta older = file(6, "a", "z", 100, 30);
    CompactionBuffer b = empty().apply(BufferedMerge.plan(0, List.of(), List.of(newer, older), true, 200, 200, CONFIG));
    assertEquals(List.of(7L, 6L), numbers(b, 1));
    // removing the newer one must fence the older one, which may hold stale versions of its keys
    b = b.apply(BufferChange.removing(List.of(new BufferChange.Removal(1, 7)), CONFIG));
    assertTrue(b.candidates(1, u("k")).isEmpty(), "the older file must not answer where the removed newer one could have");
    assertTrue(numbers(b, 1).isEmpty(), "fenced over its whole range, the older file is retired too: " + b);
  }

  @Test
  void dataLeavingALevelFencesItsBufferOverTheRangeAndTheGapsAround() {
    CompactionBuffer b = empty().apply(merge(0, file(1, "a", "z", 100, 10)));
    // C_1 now holds three files; the middle one [h, p] merges down into C_2
    FileMeta left = file(11, "a", "f", 100, 5);
    FileMeta mid = file(12, "h", "p", 100, 5);
    FileMeta right = file(13, "r", "z", 100, 5);
    b = b.apply(BufferedMerge.plan(1, List.of(left, mid, right), List.of(mid), true, 300, 300, CONFIG));
    assertEquals(List.of(12L), numbers(b, 2), "the C_1 file went to B_2");
    assertEquals(List.of(1L), numbers(b, 1), "B_1 still answers outside the fenced range");
    assertFalse(b.candidates(1, u("a")).isEmpty());
    assertTrue(b.candidates(1, u("g")).isEmpty(), "the gap below the file is fenced");
    assertTrue(b.candidates(1, u("k")).isEmpty());
    assertTrue(b.candidates(1, u("q")).isEmpty(), "the gap above the file is fenced");
    assertFalse(b.candidates(1, u("s")).isEmpty());
    assertTrue(b.candidates(1, u("f")).isEmpty() && b.candidates(1, u("r")).isEmpty(),
        "the fence reaches the neighbours' edge keys (over-fencing is always safe)");
    // the rest of C_1 leaves too: B_1's file is fenced everywhere and retired
    b = b.apply(BufferedMerge.plan(1, List.of(left, right), List.of(left), true, 100, 100, CONFIG));
    b = b.apply(BufferedMerge.plan(1, List.of(right), List.of(right), true, 100, 100, CONFIG));
    assertTrue(b.files(1).isEmpty(), "a buffer file fenced over its whole range is retired: " + b);
    assertTrue(b.fences(1).isEmpty(), "fences older than every file are dropped");
    assertEquals(List.of(13L, 11L, 12L), numbers(b, 2));
  }

  @Test
  void aTrivialMoveFencesBothLevelsAndAppendsNothing() {
    CompactionBuffer b = empty().apply(merge(0, file(1, "a", "z", 100, 10)));
    b = b.apply(merge(1, file(2, "a", "z", 100, 10)));
    FileMeta moved = file(3, "k", "m", 100, 40);
    b = b.apply(BufferedMerge.plan(1, List.of(moved), List.of(moved), false, 0, 0, CONFIG));
    assertEquals(List.of(2L), numbers(b, 2), "a moved file is not appended");
    assertTrue(b.candidates(2, u("l")).isEmpty(), "newer data entered C_2 under the older buffer file");
    assertFalse(b.candidates(2, u("b")).isEmpty());
  }

  @Test
  void theBufferIsPacedSmallestMaximumKeyFirst() {
    CompactionBuffer b = empty();
    b = b.apply(merge(0, file(1, "m", "p", 400, 10)));
    b = b.apply(merge(0, file(2, "a", "c", 400, 20)));
    b = b.apply(merge(0, file(3, "x", "z", 400, 30))); // 1200 bytes > S_1 = 1000
    assertEquals(List.of(3L, 1L), numbers(b, 1), "the file with the smallest maximum key went");
    assertEquals(1, b.outcome().paced());
  }

  @Test
  void repeatedDataFreezesTheListUntilTheLevelTurnsOver() {
    FileMeta f = file(1, "a", "z", 500, 10);
    // read 1000 bytes (f and the overlapping C_1 data), wrote 600: keys were overwritten
    CompactionBuffer b = empty().apply(BufferedMerge.plan(0, List.of(), List.of(f), true, 1000, 600, CONFIG));
    assertTrue(b.frozen(1));
    assertTrue(b.files(1).isEmpty(), "a frozen list takes nothing");
    assertEquals(1, b.outcome().frozenMerges());
    assertTrue(b.candidates(1, u("k")).isEmpty());
    // C_1 (S_1 = 1000) moves 1000 bytes down: B_1 unfreezes
    b = b.apply(merge(1, file(2, "a", "m", 600, 5)));
    assertTrue(b.frozen(1));
    b = b.apply(merge(1, file(3, "n", "z", 400, 5)));
    assertFalse(b.frozen(1));
    b = b.apply(merge(0, file(4, "a", "z", 100, 50)));
    assertEquals(List.of(4L), numbers(b, 1));
  }

  @Test
  void aTrimRemovesColdFilesButSparesNewOnes() {
    CompactionBuffer b = empty();
    b = b.apply(merge(0, file(1, "a", "c", 100, 10)));
    b = b.apply(merge(0, file(2, "d", "f", 100, 20)));
    long epoch = b.epoch();
    b = b.apply(merge(0, file(3, "g", "i", 100, 30)));
    Map<Long, TrimPlanner.Residency> residency = Map.of(
        1L, new TrimPlanner.Residency(1, 10), 2L, new TrimPlanner.Residency(9, 10), 3L, new TrimPlanner.Residency(0, 10));
    List<BufferChange.Removal> removals = TrimPlanner.plan(b, residency, epoch, 0.5);
    assertEquals(List.of(new BufferChange.Removal(1, 1)), removals, "file 3 is new, file 2 is hot");
    b = b.apply(BufferChange.removing(removals, CONFIG));
    assertEquals(List.of(3L, 2L), numbers(b, 1));
    assertEquals(1, b.outcome().trimmed());
    assertTrue(TrimPlanner.plan(b, residency, b.epoch(), 0.0).isEmpty(), "threshold 0 keeps everything");
  }

  @Test
  void removingAFileFencesOnlyOlderFiles() {
    CompactionBuffer b = empty();
    b = b.apply(merge(0, file(1, "a", "z", 100, 10)));
    b = b.apply(merge(0, file(2, "k", "m", 100, 20)));
    b = b.apply(merge(0, file(3, "a", "z", 100, 30)));
    b = b.apply(BufferChange.removing(List.of(new BufferChange.Removal(1, 2)), CONFIG));
    assertEquals(List.of(3L), b.candidates(1, u("l")).stream().map(BufferFile::fileNumber).toList(),
        "file 1 is older than the removed file 2 and fenced at l; file 3 is newer and still answers");
    assertEquals(List.of(3L, 1L), b.candidates(1, u("b")).stream().map(BufferFile::fileNumber).toList());
  }
}
