package io.iam.core.policy;

import io.iam.core.option.OptionValues;

/**
 * What leveling and tiering share: the size ratio T between levels that {@link RunLevels} counts
 * in flushes, and no bound on the number of runs (one or T − 1 per level, about log_T(flushes)
 * levels).
 */
abstract class LevelRatioPolicy extends AbstractPolicy {

  /** T. */
  final int t;

  LevelRatioPolicy(String name, OptionValues options) {
    super(name, options);
    this.t = options.get(PolicyOptions.LEVEL_RATIO);
  }

  @Override
  public final int maxComponents() {
    return Integer.MAX_VALUE;
  }

  /** The flushes component {@code i} holds. */
  static long flushes(StackSnapshot s, int i) {
    Component c = s.get(i);
    return c.lastFlush() - c.firstFlush() + 1;
  }
}
