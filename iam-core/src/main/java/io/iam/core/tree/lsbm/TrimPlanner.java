package io.iam.core.tree.lsbm;

import io.iam.core.manifest.BufferDiff;
import io.iam.core.manifest.BufferFile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Chooses the buffer files a trim removes (the paper's Algorithm 2): every file whose fraction of
 * blocks in the block cache is below the threshold, except files appended since the previous
 * trim, whose hot blocks may still be on their way into the cache (the paper spares B_i^0, the
 * newest sorted table, for the same reason), and files that have sources still in the buffer:
 * reads go to those sources, so the file's own blocks are not read and its residency says
 * nothing (removing it would send its keys' reads to a newer, uncached file). A pure function
 * of the buffer and the residency counts the block cache keeps per file.
 */
public final class TrimPlanner {

  /** How much of one file is cached. */
  public record Residency(long cachedBlocks, long totalBlocks) {

    public double fraction() {
      return totalBlocks <= 0 ? 0 : (double) cachedBlocks / totalBlocks;
    }
  }

  private TrimPlanner() {}

  /**
   * @param residency by file number; a file missing from it counts as uncached
   * @param sparedAfter files with an epoch above this are spared (the buffer's epoch at the previous trim)
   * @return the files to remove, level by level; empty if none
   */
  public static List<BufferDiff.Removal> plan(CompactionBuffer buffer, Map<Long, Residency> residency, long sparedAfter,
      double threshold) {
    List<BufferDiff.Removal> out = new ArrayList<>();
    for (int level = 1; level < buffer.numLevels(); level++) {
      for (BufferFile b : buffer.files(level)) {
        if (b.epoch() > sparedAfter || !buffer.sources(b.fileNumber()).isEmpty()) {
          continue;
        }
        Residency r = residency.getOrDefault(b.fileNumber(), new Residency(0, 1));
        if (r.fraction() < threshold) {
          out.add(new BufferDiff.Removal(level, b.fileNumber()));
        }
      }
    }
    return out;
  }
}
