package io.iam.core.tree;

import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The LSbM paper's merge scheduler (§4.1, after bLSM's gear scheduler), as a picker over a
 * version's levels. Logical level i ≥ 1 has two halves, each a sorted run of files with disjoint
 * ranges: C_i, which receives merges from above, and C_i′, which is merged down into C_{i+1} one
 * file at a time. They are stored as two levels of the version, C_i at {@link #in in(i)} = 2i − 1
 * and C_i′ at {@link #out out(i)} = 2i, so a read walking the levels top down meets C_i (newer)
 * before C_i′ and C_i′ before C_{i+1}. Level 0 is merged into C_1 as in {@link LeveledPicker}.
 *
 * <p>The rules (Algorithm 1, with the paper's simplification that |C_i| + |C_i′| stays at S_i):
 * <ul>
 *   <li>a logical level i below the last needs work when |C_i| + |C_i′| ≥ S_i (score: that sum ÷
 *       S_i; level 0: its files ÷ the L0 trigger). The highest score that can run goes first;
 *   <li>if C_i′ holds files, its first file by key (smallest first, so C_i′ drains in key order,
 *       the order B_i′ is removed in) is merged with the files of C_{i+1} it overlaps, or moved
 *       down by a manifest edit if it overlaps none. So each chunk merged into C_i is followed by
 *       as much data leaving C_i′: the two halves move in step;
 *   <li>if C_i′ is empty and C_i has reached S_i, all of C_i becomes C_i′ by a manifest edit (a
 *       move of every file of C_i, none busy), and the next round starts.
 * </ul>
 * The last logical level n = max(1, ⌊(levels − 1) / 2⌋) has only C_n, which never compacts; levels
 * of the version past in(n) stay empty. A pure function of its inputs, like {@link LeveledPicker}.
 */
public final class GearPicker implements CompactionPicker {

  private final LeveledPicker leveled;

  /** @param leveled the same tree's leveled picker: level 0 and the budgets S_i come from it */
  public GearPicker(LeveledPicker leveled) {
    this.leveled = leveled;
  }

  /** The version level that holds C_i, the receiving half of logical level {@code i} ≥ 1. */
  public static int in(int i) {
    return 2 * i - 1;
  }

  /** The version level that holds C_i′, the half of logical level {@code i} ≥ 1 that is merged down. */
  public static int out(int i) {
    return 2 * i;
  }

  /** The logical level of version level {@code level} ≥ 1. */
  public static int logical(int level) {
    return (level + 1) / 2;
  }

  /** Whether version level {@code level} ≥ 1 holds a C_i′ (a half that is merged down). */
  public static boolean isOutHalf(int level) {
    return level >= 2 && level % 2 == 0;
  }

  /** The last logical level of a version with {@code levels} levels (level 0 included). */
  public static int lastLogical(int levels) {
    return Math.max(1, (levels - 1) / 2);
  }

  /** S_i of the logical level version level {@code level} belongs to. */
  @Override
  public long maxBytes(int level) {
    return leveled.maxBytes(logical(level));
  }

  /** {@code cursors} are not used: C_i′ always drains from its smallest key. */
  @Override
  public CompactionPick pick(Version v, Set<Long> busy, byte[][] cursors) {
    record Candidate(int logical, double score) {}
    List<Candidate> candidates = new ArrayList<>();
    candidates.add(new Candidate(0, leveled.level0Score(v, busy)));
    int last = lastLogical(v.numLevels());
    for (int i = 1; i < last; i++) {
      long total = v.levelBytes(in(i)) + v.levelBytes(out(i));
      candidates.add(new Candidate(i, (double) total / leveled.maxBytes(i)));
    }
    candidates.sort(Comparator.comparingDouble(Candidate::score).reversed());
    for (Candidate c : candidates) {
      if (c.score() < 1) {
        break;
      }
      CompactionPick pick = c.logical() == 0 ? leveled.pickLevel0(v, busy, c.score()) : pickLevel(v, c.logical(), busy, c.score());
      if (pick != null) {
        return pick;
      }
    }
    return null;
  }

  private CompactionPick pickLevel(Version v, int i, Set<Long> busy, double score) {
    List<FileMeta> draining = v.files(out(i));
    if (draining.isEmpty()) {
      List<FileMeta> receiving = v.files(in(i));
      if (receiving.isEmpty() || v.levelBytes(in(i)) < leveled.maxBytes(i)
          || receiving.stream().anyMatch(f -> busy.contains(f.fileNumber()))) {
        return null;
      }
      return new CompactionPick(in(i), receiving, List.of(), true, score);
    }
    for (FileMeta f : draining) {
      if (busy.contains(f.fileNumber())) {
        continue;
      }
      byte[][] range = leveled.userRange(List.of(f));
      List<FileMeta> below = v.overlapping(in(i + 1), range[0], range[1]);
      if (below.stream().anyMatch(b -> busy.contains(b.fileNumber()))) {
        continue;
      }
      return new CompactionPick(out(i), List.of(f), below, below.isEmpty(), score);
    }
    return null;
  }
}
