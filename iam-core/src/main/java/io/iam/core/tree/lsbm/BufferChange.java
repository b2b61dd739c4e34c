package io.iam.core.tree.lsbm;

import io.iam.core.tree.FileMeta;
import java.util.List;

/**
 * What one manifest edit does to the compaction buffer, as planned by {@link BufferedMerge} or
 * {@link TrimPlanner}; {@link CompactionBuffer#apply} turns it into the next buffer when the edit
 * is installed, so concurrent edits compose.
 *
 * @param level the level of the compaction's inputs (C_i), or -1 for a trim alone
 * @param movedDown the files that left C_i for C_{i+1}
 * @param merged whether they were merged (appended to B_{i+1} unless it is frozen) rather than
 *     moved by a manifest edit (then B_{i+1} is fenced over their ranges)
 * @param fences ranges to fence (the data that left C_i, widened over the gaps around it)
 * @param removals buffer files to remove (trim), by level and number
 * @param bytesIn bytes the compaction read (both levels; 0 for a move)
 * @param bytesOut bytes it wrote
 * @param config the budgets and thresholds at the time
 */
public record BufferChange(
    int level,
    List<FileMeta> movedDown,
    boolean merged,
    List<LevelFence> fences,
    List<Removal> removals,
    long bytesIn,
    long bytesOut,
    LsbmConfig config) {

  /** A range to fence on one level (user keys, inclusive, null open). */
  public record LevelFence(int level, byte[] lo, byte[] hi) {}

  /** A buffer file to remove. */
  public record Removal(int level, long fileNumber) {}

  public BufferChange {
    movedDown = List.copyOf(movedDown);
    fences = List.copyOf(fences);
    removals = List.copyOf(removals);
  }

  /** A change that only removes buffer files (a trim). */
  public static BufferChange removing(List<Removal> removals, LsbmConfig config) {
    return new BufferChange(-1, List.of(), false, List.of(), removals, 0, 0, config);
  }
}
