package io.iam.core.tree.lsbm;

import io.iam.core.manifest.KeyFilter;

import io.iam.core.manifest.FileMeta;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Plans what a leveled compaction of C_i into C_{i+1} does to the compaction buffer (the bold
 * lines of the paper's Algorithm 1, adapted to a leveled tree whose levels never empty): the
 * merge's inputs, from both levels, are kept on disk as buffer files of B_{i+1} instead of being
 * deleted (no I/O: they are on disk already), and each output file records which of them it was
 * merged from, newest data first, so reads of it can go to their cached blocks. A pure function.
 */
public final class BufferedMerge {

  private BufferedMerge() {}

  /**
   * The buffer change of one compaction.
   *
   * @param level i, the level of {@code upper}
   * @param upper the files of C_i it takes
   * @param lower the files of C_{i+1} it rewrites
   * @param outputs the files it wrote into C_{i+1}
   * @param merged false for a trivial move (files re-labelled, nothing merged)
   * @param filters the inputs' key filters, by file number
   * @param bytesIn bytes read from both levels
   * @param bytesOut bytes written
   */
  public static BufferChange plan(int level, List<FileMeta> upper, List<FileMeta> lower, List<FileMeta> outputs,
      boolean merged, Map<Long, KeyFilter> filters, long bytesIn, long bytesOut, LsbmConfig config) {
    List<FileMeta> inputs = new ArrayList<>(upper);
    // level-0 files overlap: the one with the newest data first (a later flush holds newer versions)
    inputs.sort(Comparator.comparingLong(FileMeta::largestSequence).reversed());
    inputs.addAll(lower);
    return new BufferChange(level, inputs, upper.size(), outputs, merged, filters, List.of(), bytesIn, bytesOut, config, false);
  }
}
