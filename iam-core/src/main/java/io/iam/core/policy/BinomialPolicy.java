package io.iam.core.policy;

import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionValues;

/**
 * Binomial (Mathieu et al.): a static policy. At flush t, with {@code T_k(m) = sum over i = 1..m
 * of C(i + min(i, k) - 1, i)}, {@code m' = min{m : T_k(m) >= t}} and {@code i = 1 + B(m', min(m',
 * k) - 1, t - T_k(m'-1) - 1)}, the i-th oldest SSTable is merged with all newer ones and the
 * flush, leaving i components.
 *
 * <p>Follows the paper's text. Some public re-implementations (the UCR simulator) add a guard
 * "no merge while there are at most k components"; the paper has none, and neither do we, so in
 * the small-n regime (fewer than about 4^k flushes) Binomial merges early and keeps the average
 * component count well below k, as the paper describes.
 */
public final class BinomialPolicy extends BoundedDepthPolicy {

  public static final String NAME = "binomial";
  public static final OptionTable OPTIONS = boundOnly(NAME);

  public BinomialPolicy(OptionValues options) {
    super(NAME, options);
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int keep = StackMath.binomialKeep(k, s.flushCount());
    return MergePlan.suffix(keep - 1, s.size());
  }
}
