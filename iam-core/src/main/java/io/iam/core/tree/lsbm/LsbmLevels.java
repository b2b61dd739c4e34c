package io.iam.core.tree.lsbm;

/** How the levels under tree=lsbm's compaction buffer are organised and scheduled. */
public enum LsbmLevels {
  /**
   * The paper's design (§4.1): each level has two halves, C_i and C_i′, kept in step by bLSM's
   * gear scheduler ({@link io.iam.core.tree.GearPicker}); B_i′ is removed at the pace C_i′ drains.
   */
  GEAR,
  /**
   * One sorted run per level, compacted as {@code tree=leveled} does ({@link
   * io.iam.core.tree.LeveledPicker}); B_i is held to its byte cap.
   */
  LEVELED
}
