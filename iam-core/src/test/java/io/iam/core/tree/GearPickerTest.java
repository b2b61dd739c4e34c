package io.iam.core.tree;

import io.iam.core.manifest.LevelBuffers;

import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionEdit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.ValueType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The gear scheduler's picks on hand-made versions (levels: 0, C_1 = 1, C_1′ = 2, C_2 = 3, C_2′ = 4,
 * C_3 = 5; S_1 = 1000 bytes, S_2 = 10,000), and a run of picks applied to a growing tree that
 * checks the halves stay in step.
 */
class GearPickerTest {

  private static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);
  private static final LeveledPicker LEVELED = new LeveledPicker(CMP, new LeveledPicker.Config(4, 1000, 10));
  private static final GearPicker GEAR = new GearPicker(LEVELED);
  private static final byte[][] NO_CURSORS = new byte[7][];

  private static FileMeta file(long number, long size, String lo, String hi) {
    return new FileMeta(number, size, 1, 10, InternalKey.encode(lo.getBytes(StandardCharsets.UTF_8), 9, ValueType.PUT),
        InternalKey.encode(hi.getBytes(StandardCharsets.UTF_8), 8, ValueType.PUT), 8, 9);
  }

  private static Version version(VersionEdit edit) {
    return Version.empty(CMP, 7, LevelBuffers.NONE).apply(edit);
  }

  private static List<Long> numbers(List<FileMeta> files) {
    return files.stream().map(FileMeta::fileNumber).toList();
  }

  @Test
  void levelsMapToTwoHalvesEach() {
    assertEquals(1, GearPicker.in(1));
    assertEquals(2, GearPicker.out(1));
    assertEquals(3, GearPicker.in(2));
    assertEquals(2, GearPicker.logical(3));
    assertEquals(2, GearPicker.logical(4));
    assertTrue(GearPicker.isOutHalf(4));
    assertTrue(!GearPicker.isOutHalf(3) && !GearPicker.isOutHalf(1));
    assertEquals(3, GearPicker.lastLogical(7));
    assertEquals(3, GearPicker.lastLogical(8));
    assertEquals(1, GearPicker.lastLogical(2));
    assertEquals(10_000, GEAR.maxBytes(3));
    assertEquals(10_000, GEAR.maxBytes(4));
  }

  @Test
  void aFullReceivingHalfBecomesTheDrainingHalfWhenThatIsEmpty() {
    Version v = version(new VersionEdit().add(1, file(1, 600, "a", "f")).add(1, file(2, 500, "g", "p")));
    CompactionPick pick = GEAR.pick(v, Set.of(), NO_CURSORS);
    assertEquals(1, pick.level());
    assertEquals(2, pick.outputLevel());
    assertTrue(pick.trivialMove());
    assertEquals(List.of(1L, 2L), numbers(pick.inputs()));
    assertNull(GEAR.pick(v, Set.of(2L), NO_CURSORS), "a busy file of C_1 holds the move back");
    Version underBudget = version(new VersionEdit().add(1, file(1, 600, "a", "f")));
    assertNull(GEAR.pick(underBudget, Set.of(), NO_CURSORS));
  }

  @Test
  void theDrainingHalfGoesDownByKeyWhileBothHalvesHoldTheBudget() {
    Version v = version(new VersionEdit()
        .add(1, file(1, 300, "a", "c"))
        .add(2, file(2, 400, "d", "f")).add(2, file(3, 400, "g", "k"))
        .add(3, file(4, 900, "a", "e")).add(3, file(5, 900, "j", "z")));
    CompactionPick pick = GEAR.pick(v, Set.of(), NO_CURSORS);
    assertEquals(2, pick.level());
    assertEquals(List.of(2L), numbers(pick.inputs()), "C_1′ drains from its smallest key");
    assertEquals(List.of(4L), numbers(pick.nextLevelInputs()));
    assertTrue(!pick.trivialMove());
    CompactionPick next = GEAR.pick(v, Set.of(2L, 4L), NO_CURSORS);
    assertEquals(List.of(3L), numbers(next.inputs()), "a busy file is skipped");
    assertEquals(List.of(5L), numbers(next.nextLevelInputs()));
    Version within = version(new VersionEdit().add(1, file(1, 100, "a", "c")).add(2, file(2, 400, "d", "f")));
    assertNull(GEAR.pick(within, Set.of(), NO_CURSORS), "700 of 1000 bytes: nothing to do");
    Version apart = version(new VersionEdit().add(1, file(1, 700, "a", "c")).add(2, file(2, 400, "d", "f")));
    assertTrue(GEAR.pick(apart, Set.of(), NO_CURSORS).trivialMove(), "nothing below overlaps: a move");
  }

  @Test
  void levelZeroMergesIntoTheReceivingHalfAndTheLastLevelNeverCompacts() {
    VersionEdit edit = new VersionEdit().add(5, file(20, 1_000_000, "a", "z"));
    for (long n = 1; n <= 4; n++) {
      edit.add(0, file(n, 100, "b", "x"));
    }
    edit.add(1, file(10, 200, "c", "d"));
    CompactionPick pick = GEAR.pick(version(edit), Set.of(), NO_CURSORS);
    assertEquals(0, pick.level());
    assertEquals(List.of(10L), numbers(pick.nextLevelInputs()));
    assertNull(GEAR.pick(version(new VersionEdit().add(5, file(20, 1_000_000, "a", "z"))), Set.of(), NO_CURSORS));
  }

  /**
   * Feeds 2,000 level-0 files of 100 bytes, each over a tenth of a key space of 10,000 keys, and
   * applies every pick (a merge writes 80% of its inputs' bytes, as overwrites would leave, in
   * files of at most 250 bytes over the inputs' key range): C_1 and C_1′ together never hold much
   * more than S_1, a move happens only into an empty C_1′, and nothing goes below the last level.
   */
  @Test
  void theHalvesMoveInStep() {
    Version v = Version.empty(CMP, 7, LevelBuffers.NONE);
    long next = 1;
    int moves = 0;
    int drains = 0;
    for (int flush = 0; flush < 2000; flush++) {
      int lo = (flush * 3_137) % 9_000;
      v = v.apply(new VersionEdit().add(0, file(next++, 100, key(lo), key(lo + 1000))));
      CompactionPick pick;
      while ((pick = GEAR.pick(v, Set.of(), NO_CURSORS)) != null) {
        CompactionPick p = pick;
        VersionEdit edit = new VersionEdit();
        p.inputs().forEach(f -> edit.remove(p.level(), f.fileNumber()));
        p.nextLevelInputs().forEach(f -> edit.remove(p.outputLevel(), f.fileNumber()));
        if (p.trivialMove()) {
          p.inputs().forEach(f -> edit.add(p.outputLevel(), f));
          if (p.level() % 2 == 1) {
            assertTrue(v.files(p.outputLevel()).isEmpty(), "a move into a non-empty C_i′: " + v);
            moves++;
          }
        } else {
          next = merge(p, edit, next);
          if (GearPicker.isOutHalf(p.level())) {
            drains++;
          }
        }
        v = v.apply(edit);
        long total = v.levelBytes(1) + v.levelBytes(2);
        assertTrue(total < 1000 + 400 + 250 * 5, "C_1 + C_1′ = " + total);
        assertTrue(v.files(6).isEmpty(), "nothing goes below C_3");
      }
    }
    assertTrue(moves >= 10, "moves " + moves);
    assertTrue(drains >= 10, "drains " + drains);
    assertTrue(!v.files(3).isEmpty(), "data reached C_2: " + v);
  }

  private static String key(int k) {
    return String.format("%05d", k);
  }

  /** Writes 80% of a pick's input bytes as files of at most 250 bytes, evenly over their key range. */
  private static long merge(CompactionPick pick, VersionEdit edit, long next) {
    long bytes = 0;
    int lo = Integer.MAX_VALUE;
    int hi = Integer.MIN_VALUE;
    for (FileMeta f : pick.allInputs()) {
      bytes += f.fileSize();
      lo = Math.min(lo, Integer.parseInt(new String(InternalKey.userKey(f.smallest()), StandardCharsets.UTF_8)));
      hi = Math.max(hi, Integer.parseInt(new String(InternalKey.userKey(f.largest()), StandardCharsets.UTF_8)));
    }
    long kept = Math.max(1, bytes * 4 / 5);
    int pieces = (int) Math.min(hi - lo + 1, Math.max(1, (kept + 249) / 250));
    for (int p = 0; p < pieces; p++) {
      int start = lo + (int) ((long) (hi - lo + 1) * p / pieces);
      int end = lo + (int) ((long) (hi - lo + 1) * (p + 1) / pieces) - 1;
      edit.add(pick.outputLevel(), file(next++, kept / pieces, key(start), key(end)));
    }
    return next;
  }
}
