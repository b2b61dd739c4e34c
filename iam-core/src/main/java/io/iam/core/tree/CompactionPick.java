package io.iam.core.tree;

import io.iam.core.manifest.FileMeta;

import java.util.ArrayList;
import java.util.List;

/**
 * A compaction chosen by a picker: the files of {@code level} and the overlapping files of {@code
 * level + 1} to merge into {@code level + 1}. A <em>trivial move</em> has nothing to merge: its
 * files move down by a manifest edit alone, so their bytes are written only once.
 */
public record CompactionPick(int level, List<FileMeta> inputs, List<FileMeta> nextLevelInputs, boolean trivialMove, double score) {

  public CompactionPick {
    inputs = List.copyOf(inputs);
    nextLevelInputs = List.copyOf(nextLevelInputs);
  }

  public int outputLevel() {
    return level + 1;
  }

  /** Every input file. */
  public List<FileMeta> allInputs() {
    List<FileMeta> all = new ArrayList<>(inputs);
    all.addAll(nextLevelInputs);
    return all;
  }

  public long inputBytes() {
    return allInputs().stream().mapToLong(FileMeta::fileSize).sum();
  }
}
