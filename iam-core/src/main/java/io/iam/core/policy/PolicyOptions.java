package io.iam.core.policy;

import io.iam.core.option.Option;
import io.iam.core.option.OptionType;

/** Options shared by several policies, declared once. */
public final class PolicyOptions {

  private PolicyOptions() {}

  /** k, the depth bound of the bounded-depth policies. */
  public static final Option<Integer> MAX_COMPONENTS =
      Option.builder("max-components", OptionType.INT)
          .defaultValue(6)
          .bounds(1, StackMath.MAX_K)
          .asterixName("num-components")
          .doc("k: the most components (sorted runs) a store keeps after each decision")
          .build();

  /** T, the size ratio between the levels of leveling and tiering, counted in flushes. */
  public static final Option<Integer> LEVEL_RATIO =
      Option.builder("size-ratio", OptionType.INT)
          .defaultValue(10)
          .bounds(2, 1000)
          .asterixName("size-ratio")
          .doc("T: level i takes runs of T^(i-1) flushes; leveling keeps one run under T^i flushes, tiering up to T-1 runs")
          .build();
}
