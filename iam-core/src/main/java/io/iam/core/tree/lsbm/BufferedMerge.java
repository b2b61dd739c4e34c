package io.iam.core.tree.lsbm;

import io.iam.core.key.InternalKey;
import io.iam.core.tree.FileMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans what a leveled compaction of C_i into C_{i+1} does to the compaction buffer (the bold
 * lines of the paper's Algorithm 1, adapted to LevelDB's one-file-at-a-time compactions): the
 * files of C_i go to B_{i+1} instead of being deleted (no I/O: they are already on disk), and B_i
 * is fenced over the key range that left C_i, widened to the neighbouring files of C_i (keys
 * between two files of C_i are in no file of it, so fencing them costs nothing and lets a fully
 * fenced buffer file be retired). A pure function of the level's files before the compaction.
 */
public final class BufferedMerge {

  private BufferedMerge() {}

  /**
   * The buffer change of one compaction.
   *
   * @param level i, the level of {@code inputs}
   * @param levelFiles the files of C_i before the compaction, sorted by key (i ≥ 1; ignored for 0)
   * @param inputs the files of C_i it takes
   * @param merged false for a trivial move (files re-labelled, nothing merged)
   * @param bytesIn bytes read from both levels
   * @param bytesOut bytes written
   */
  public static BufferChange plan(int level, List<FileMeta> levelFiles, List<FileMeta> inputs, boolean merged,
      long bytesIn, long bytesOut, LsbmConfig config) {
    List<BufferChange.LevelFence> fences = new ArrayList<>();
    if (level >= 1) {
      for (FileMeta g : inputs) {
        int at = indexOf(levelFiles, g.fileNumber());
        byte[] lo;
        byte[] hi;
        if (at < 0) {
          lo = InternalKey.userKey(g.smallest()); // not found: fence exactly its own range
          hi = InternalKey.userKey(g.largest());
        } else {
          lo = at == 0 ? null : InternalKey.userKey(levelFiles.get(at - 1).largest());
          hi = at == levelFiles.size() - 1 ? null : InternalKey.userKey(levelFiles.get(at + 1).smallest());
        }
        fences.add(new BufferChange.LevelFence(level, lo, hi));
      }
    }
    return new BufferChange(level, inputs, merged, fences, List.of(), bytesIn, bytesOut, config);
  }

  private static int indexOf(List<FileMeta> files, long number) {
    for (int i = 0; i < files.size(); i++) {
      if (files.get(i).fileNumber() == number) {
        return i;
      }
    }
    return -1;
  }
}
