package io.iam.core.tree.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What each mode lets a node of a level hold, and when a flush into it merges. */
class ModeTest {

  @Test
  void maxSequencesFollowsTheLevelsRole() {
    Mode iam = Mode.iam(3, 4);
    assertEquals(Integer.MAX_VALUE, iam.maxSequences(1));
    assertEquals(Integer.MAX_VALUE, iam.maxSequences(2));
    assertEquals(4, iam.maxSequences(3), "k at the mixed level");
    assertEquals(1, iam.maxSequences(4), "one on a merging level");
    assertEquals(1, Mode.lsmMerge().maxSequences(1));
    assertEquals(Integer.MAX_VALUE, Mode.lsa().maxSequences(9));
  }

  @Test
  void aFlushMergesWhereTheLevelHoldsNoMoreSequences() {
    Mode iam = Mode.iam(3, 4);
    for (int level = 1; level <= 5; level++) {
      int max = iam.maxSequences(level);
      if (max != Integer.MAX_VALUE) {
        assertTrue(iam.merges(level, max), "level " + level + " full at " + max);
      }
      assertFalse(level < 3 && iam.merges(level, 1_000), "appending level " + level);
    }
    assertFalse(iam.merges(3, 3), "the mixed level appends below k");
  }
}
