package io.iam.core.tree.lsbm;

import io.iam.core.manifest.BufferDiff;
import io.iam.core.manifest.KeyFilter;
import io.iam.core.manifest.LevelBuffers;

import io.iam.core.manifest.FileMeta;
import java.util.List;
import java.util.Map;

/**
 * What one manifest edit does to the compaction buffer, as planned by {@link BufferedMerge} or
 * {@link TrimPlanner}; {@link CompactionBuffer#apply} turns it into the next buffer when the edit
 * is installed, so concurrent edits compose.
 *
 * @param level the level of the compaction's upper inputs (C_i), or -1 for a trim alone
 * @param inputs every input of the merge, newest data first: the files of C_i (level 0: by
 *     largest sequence, descending), then the files of C_{i+1} they overlap
 * @param upperCount how many of {@code inputs} come from C_i
 * @param outputs the files the merge wrote into C_{i+1} (empty for a move)
 * @param merged whether the inputs were merged; false for a trivial move (files re-labelled)
 * @param filters the inputs' key filters, by file number (an input missing here admits every key)
 * @param removals buffer files to remove (trim), by level and number
 * @param bytesIn bytes the compaction read (both levels; 0 for a move)
 * @param bytesOut bytes it wrote
 * @param config the budgets and thresholds at the time
 * @param shift a gear move ({@link io.iam.core.tree.GearPicker}): {@code inputs} are all of C_i
 *     ({@code level}, odd), which becomes C_i′; B_i becomes B_i′ with it and a new, empty B_i
 *     starts (Algorithm 1 lines 7–11)
 */
public record BufferChange(
    int level,
    List<FileMeta> inputs,
    int upperCount,
    List<FileMeta> outputs,
    boolean merged,
    Map<Long, KeyFilter> filters,
    List<BufferDiff.Removal> removals,
    long bytesIn,
    long bytesOut,
    LsbmConfig config,
    boolean shift) implements LevelBuffers.Update {

  public BufferChange {
    if (shift && (merged || level < 1 || level % 2 == 0 || upperCount != inputs.size())) {
      throw new IllegalArgumentException("a gear move takes all of an odd level, unmerged: level " + level);
    }
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
    filters = Map.copyOf(filters);
    removals = List.copyOf(removals);
  }

  /** The inputs from C_i (the data that leaves C_i). */
  public List<FileMeta> upper() {
    return inputs.subList(0, upperCount);
  }

  KeyFilter filter(FileMeta f) {
    return filters.getOrDefault(f.fileNumber(), KeyFilter.ALL);
  }

  /** A change that only removes buffer files (a trim). */
  public static BufferChange removing(List<BufferDiff.Removal> removals, LsbmConfig config) {
    return new BufferChange(-1, List.of(), 0, List.of(), false, Map.of(), removals, 0, 0, config, false);
  }

  /** The gear move of every file of C_{@code level} (odd) into the empty C_{@code level}′. */
  public static BufferChange shift(int level, List<FileMeta> files, LsbmConfig config) {
    return new BufferChange(level, files, files.size(), List.of(), false, Map.of(), List.of(), 0, 0, config, true);
  }
}
