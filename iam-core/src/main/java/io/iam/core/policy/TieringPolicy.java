package io.iam.core.policy;

import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionValues;
import java.util.List;

/**
 * Tiering over a stack (the Min-Max paper's tiered LSM, Fig. 7; Cassandra's size-tiered shape with
 * an exact ratio): level i ≥ 1 holds up to T − 1 runs of T^(i−1) flushes each. When a flush makes
 * level 1 hold T runs they are merged into one run of level 2; if that makes level 2 hold T runs,
 * those are merged too, and so on. The whole cascade is one plan, merged once and written at the
 * level where the result stays.
 *
 * <p>Levels are counted in flushes ({@link RunLevels}). Not depth-bounded: the stack holds up to
 * (T − 1) runs per level.
 */
public final class TieringPolicy extends LevelRatioPolicy {

  public static final String NAME = "tiering";
  public static final OptionTable OPTIONS =
      OptionTable.of(NAME + " policy", List.of(PolicyOptions.LEVEL_RATIO));

  public TieringPolicy(OptionValues options) {
    super(NAME, options);
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int newest = s.size() - 1;
    int from = newest + 1;
    long arriving = 0; // flushes of the run arriving at the level being looked at
    int i = newest;
    for (int level = 1; ; level++) {
      long runFlushes = RunLevels.power(t, level - 1);
      // the runs of this level, newest first: the arriving merge result counts as one of them
      int runs = arriving > 0 ? 1 : 0;
      while (i >= 0 && flushes(s, i) == runFlushes && runs < t) {
        runs++;
        i--;
      }
      if (runs < t) {
        break; // this level does not fill: the arriving run stays here
      }
      from = i + 1;
      arriving = RunLevels.power(t, level);
    }
    return from > newest - 1 ? MergePlan.none() : MergePlan.merge(from, newest);
  }
}
