package io.iam.core.tree;

import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;

import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Chooses the next compaction of a leveled tree, LevelDB style. A pure function of the version,
 * the files already being compacted and the per-level round-robin cursors; it does no I/O.
 *
 * <p>Scores: level 0 scores its file count ÷ the L0 trigger (leveldb: "level 0 is scored by file
 * count because every read checks every L0 file, and because small write buffers would otherwise
 * trigger too many compactions"); level i ≥ 1 scores its bytes ÷ {@code levelBase ×
 * ratio^(i-1)}. The last level never compacts. The highest score ≥ 1 wins. Level 0 compacts all
 * its files with the overlapping level-1 files; a deeper level compacts the file with the least
 * overlap below relative to its size (RocksDB's default), plus those overlapping files. When nothing below overlaps the inputs (and, for level 0,
 * the inputs do not overlap each other), the files move down by a manifest edit only.
 */
public final class LeveledPicker implements CompactionPicker {

  /** The picker's parameters, from the store options. */
  public record Config(int l0Trigger, long levelBaseBytes, int sizeRatio) {}

  private final InternalKeyComparator cmp;
  private final Config config;

  public LeveledPicker(InternalKeyComparator cmp, Config config) {
    this.cmp = cmp;
    this.config = config;
  }

  /** Byte budget of level {@code level} ≥ 1: {@code levelBase × ratio^(level-1)}. */
  @Override
  public long maxBytes(int level) {
    double b = config.levelBaseBytes();
    for (int i = 1; i < level; i++) {
      b *= config.sizeRatio();
    }
    return (long) Math.min(b, Long.MAX_VALUE);
  }

  /** The compaction score of a level (≥ 1 means it needs compaction). */
  public double score(Version v, int level, Set<Long> busy) {
    if (level >= v.numLevels() - 1) {
      return 0;
    }
    if (level == 0) {
      long idle = v.files(0).stream().filter(f -> !busy.contains(f.fileNumber())).count();
      return (double) idle / config.l0Trigger();
    }
    return (double) v.levelBytes(level) / maxBytes(level);
  }

  @Override
  public CompactionPick pick(Version v, Set<Long> busy, byte[][] cursors) {
    int bestLevel = -1;
    double best = 1.0;
    for (int level = 0; level < v.numLevels() - 1; level++) {
      double s = score(v, level, busy);
      if (s >= best) {
        best = s;
        bestLevel = level;
      }
    }
    if (bestLevel < 0) {
      return null;
    }
    return bestLevel == 0 ? pickLevel0(v, busy, best) : pickLevel(v, bestLevel, busy, cursors[bestLevel], best);
  }

  /** Level 0's score: its idle files ÷ the L0 trigger. */
  double level0Score(Version v, Set<Long> busy) {
    return score(v, 0, busy);
  }

  /**
   * All of level 0 with the files of level 1 it overlaps (a move if nothing overlaps and the
   * files are disjoint), or null if one of them is busy.
   */
  CompactionPick pickLevel0(Version v, Set<Long> busy, double score) {
    List<FileMeta> inputs = v.files(0);
    if (inputs.stream().anyMatch(f -> busy.contains(f.fileNumber()))) {
      return null;
    }
    byte[][] range = userRange(inputs);
    List<FileMeta> below = v.overlapping(1, range[0], range[1]);
    if (below.stream().anyMatch(f -> busy.contains(f.fileNumber()))) {
      return null;
    }
    boolean trivial = below.isEmpty() && disjoint(inputs);
    return new CompactionPick(0, inputs, below, trivial, score);
  }

  /**
   * Picks the file of {@code level} whose compaction rewrites the fewest bytes per byte moved
   * down: the least (overlapping bytes below ÷ file bytes), as RocksDB's default
   * kMinOverlappingRatio does. Files with a busy overlap are skipped; ties go to the file after
   * the level's cursor, so equal candidates take turns.
   */
  private CompactionPick pickLevel(Version v, int level, Set<Long> busy, byte[] cursor, double score) {
    List<FileMeta> files = v.files(level);
    int start = 0;
    if (cursor != null) {
      while (start < files.size() && cmp.compare(files.get(start).largestRef(), cursor) <= 0) {
        start++;
      }
    }
    CompactionPick best = null;
    double bestRatio = Double.MAX_VALUE;
    for (int n = 0; n < files.size(); n++) {
      FileMeta f = files.get((start + n) % files.size());
      if (busy.contains(f.fileNumber())) {
        continue;
      }
      byte[][] range = userRange(List.of(f));
      List<FileMeta> below = v.overlapping(level + 1, range[0], range[1]);
      if (below.stream().anyMatch(b -> busy.contains(b.fileNumber()))) {
        continue;
      }
      long overlap = below.stream().mapToLong(FileMeta::fileSize).sum();
      double ratio = (double) overlap / Math.max(1, f.fileSize());
      if (ratio < bestRatio) {
        bestRatio = ratio;
        best = new CompactionPick(level, List.of(f), below, below.isEmpty(), score);
      }
    }
    return best;
  }

  /** The smallest and largest user keys of a set of files. */
  public byte[][] userRange(List<FileMeta> files) {
    byte[] lo = null;
    byte[] hi = null;
    for (FileMeta f : files) {
      if (lo == null || cmp.compare(f.smallestRef(), lo) < 0) {
        lo = f.smallestRef();
      }
      if (hi == null || cmp.compare(f.largestRef(), hi) > 0) {
        hi = f.largestRef();
      }
    }
    return new byte[][] {InternalKey.userKey(lo), InternalKey.userKey(hi)};
  }

  private boolean disjoint(List<FileMeta> files) {
    List<FileMeta> sorted = new ArrayList<>(files);
    sorted.sort((a, b) -> cmp.compare(a.smallestRef(), b.smallestRef()));
    for (int i = 1; i < sorted.size(); i++) {
      byte[] prevLargest = sorted.get(i - 1).largestRef();
      byte[] nextSmallest = sorted.get(i).smallestRef();
      int c = cmp.userComparator().compare(prevLargest, 0, InternalKey.userKeyLength(prevLargest.length),
          nextSmallest, 0, InternalKey.userKeyLength(nextSmallest.length));
      if (c >= 0) {
        return false;
      }
    }
    return true;
  }
}
