package io.iam.core.tree;

import io.iam.core.manifest.Version;

import java.util.Set;

/**
 * Chooses the next compaction of a tree of files ({@link LeveledPicker}, {@link GearPicker}). A pure
 * function of the version, the files already being compacted and the per-level cursors; it does no
 * I/O.
 */
public interface CompactionPicker {

  /**
   * The next compaction, or null if no level needs one or every candidate touches busy files.
   *
   * @param busy numbers of files in running compactions
   * @param cursors per level, the largest internal key compacted last time (null: start over)
   */
  CompactionPick pick(Version v, Set<Long> busy, byte[][] cursors);

  /**
   * The byte budget of level {@code level} ≥ 1: what its files may hold before it compacts (for a
   * {@link GearPicker}, the budget of the logical level both halves belong to).
   */
  long maxBytes(int level);
}
