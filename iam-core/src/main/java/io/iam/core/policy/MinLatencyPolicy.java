package io.iam.core.policy;

import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionValues;
import java.util.List;

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
public final class MinLatencyPolicy extends AbstractPolicy {

  public static final String NAME = "minlatency";
  public static final OptionTable OPTIONS =
      OptionTable.of(NAME + " policy", List.of(PolicyOptions.MAX_COMPONENTS));

  private final int k;

  public MinLatencyPolicy(OptionValues options) {
    super(NAME, options);
    this.k = options.get(PolicyOptions.MAX_COMPONENTS);
  }

  @Override
  public int maxComponents() {
    return k;
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int keep = StackMath.minLatencyKeep(k, s.flushCount());
    return MergePlan.suffix(keep - 1, s.size());
  }
}
