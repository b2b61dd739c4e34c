package io.iam.core.cost;

import io.iam.core.policy.RunLevels;
import java.util.ArrayList;
import java.util.List;

/**
 * Sorts what a stack store recorded ({@link RunMerge}s) into the per-level counters that the Min-Max
 * paper's formulas (1)–(6) count ({@link LsmCostFormulas}), for a leveling or tiering run with size
 * ratio T. Levels come from flush counts ({@link RunLevels}). For each recorded flush:
 *
 * <ul>
 *   <li>the written run arrives at level 1 and at every level up to the one it stays at (the level
 *       of its flush count), and is kept there: {@code arrivals}, {@code kept}, {@code keptEntries};
 *   <li>each level with at least one merged input run counts one merge, and its inputs' entries
 *       are read there: {@code merges}, {@code readEntries}.
 * </ul>
 *
 * <p>Nothing here is estimated: every entry count is what the store's files hold.
 */
public final class RunLevelAccounting {

  /** The counters of one level (1 = the first on disk). */
  public record Level(int level, long arrivals, long kept, long keptEntries, long merges, long readEntries) {}

  private final int t;
  private final List<long[]> levels = new ArrayList<>(); // index i−1: arrivals, kept, keptEntries, merges, readEntries

  public RunLevelAccounting(int t) {
    if (t < 2) {
      throw new IllegalArgumentException("t must be >= 2: " + t);
    }
    this.t = t;
  }

  /** Adds one recorded flush. */
  public RunLevelAccounting add(RunMerge m) {
    int stays = RunLevels.level(m.outputFlushes(), t);
    for (int i = 1; i <= stays; i++) {
      at(i)[0]++;
    }
    at(stays)[1]++;
    at(stays)[2] += m.outputEntries();
    int lastMerged = 0;
    for (int j = m.inputFlushes().length - 1; j >= 0; j--) { // newest input first: lowest level first
      int level = RunLevels.level(m.inputFlushes()[j], t);
      if (level != lastMerged) {
        at(level)[3]++;
        lastMerged = level;
      }
      at(level)[4] += m.inputEntries()[j];
    }
    return this;
  }

  /** Adds every recorded flush. */
  public RunLevelAccounting addAll(List<RunMerge> merges) {
    merges.forEach(this::add);
    return this;
  }

  /** The counters of {@code level} (zeros above the deepest level seen). */
  public Level level(int level) {
    long[] c = level <= levels.size() ? levels.get(level - 1) : new long[5];
    return new Level(level, c[0], c[1], c[2], c[3], c[4]);
  }

  /** The deepest level any run reached. */
  public int depth() {
    return levels.size();
  }

  private long[] at(int level) {
    while (levels.size() < level) {
      levels.add(new long[5]);
    }
    return levels.get(level - 1);
  }
}
