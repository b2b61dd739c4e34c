package io.iam.core.policy;

import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionValues;
import java.util.List;

/**
 * Leveling over a stack (the Min-Max paper's leveled LSM, Fig. 2a; LevelDB's shape with whole-level
 * merges): each level i ≥ 1 holds at most one run, of fewer than T^i flushes. A flush arrives at
 * level 1 and is merged with the run there; if the result reaches T^i flushes it moves on to level
 * i + 1 and is merged with that level's run too, and so on. The whole cascade is one plan: the
 * flush and every run it reaches, merged once and written at the level where the result stays.
 *
 * <p>Levels are counted in flushes ({@link RunLevels}), so the rule is exact however much updates
 * shrink a merge. Not depth-bounded: the stack holds one run per level, about log_T(flushes).
 */
public final class LevelingPolicy extends LevelRatioPolicy {

  public static final String NAME = "leveling";
  public static final OptionTable OPTIONS =
      OptionTable.of(NAME + " policy", List.of(PolicyOptions.LEVEL_RATIO));

  public LevelingPolicy(OptionValues options) {
    super(NAME, options);
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int newest = s.size() - 1;
    long arriving = flushes(s, newest);
    int level = RunLevels.level(arriving, t);
    int from = newest;
    for (int i = newest - 1; i >= 0; i--) {
      long resident = flushes(s, i);
      int residentLevel = RunLevels.level(resident, t);
      if (residentLevel > level) {
        break; // the arriving run stays above this one
      }
      arriving += resident; // the run of the level it arrives at: merge
      from = i;
      level = Math.max(level, RunLevels.level(arriving, t));
    }
    return from == newest ? MergePlan.none() : MergePlan.merge(from, newest);
  }
}
