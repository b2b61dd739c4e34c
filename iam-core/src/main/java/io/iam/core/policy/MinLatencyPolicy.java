package io.iam.core.policy;

import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionValues;

/**
 * MinLatency (Mathieu et al.): a static policy. At flush t, with {@code m' = min{m : C(m+k, m) >
 * t}} and {@code i = B(m', k, t)}, the i-th oldest SSTable is merged with all newer ones and the
 * flush, leaving i components. Its worst-case write amplification is the least possible among
 * stack-based policies with depth bound k; for {@code n = C(m+k, k) - 1} flushes it is at most m.
 *
 * <p>The decision depends on t only ({@link StackSnapshot#flushCount()}). If the stack has no
 * i-th component (it was built by another policy), the flush is left alone; if it has more than k
 * components, the merge still leaves i &le; k.
 */
public final class MinLatencyPolicy extends BoundedDepthPolicy {

  public static final String NAME = "minlatency";
  public static final OptionTable OPTIONS = boundOnly(NAME);

  public MinLatencyPolicy(OptionValues options) {
    super(NAME, options);
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int keep = StackMath.minLatencyKeep(k, s.flushCount());
    return MergePlan.suffix(keep - 1, s.size());
  }
}
