package io.iam.core.policy;

import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionValues;
import java.util.List;

/**
 * A stack-based policy with a bound k on the number of components (the bounded-depth paper's
 * Constant, Bigtable, Exploring, MinLatency and Binomial): k is read once from {@link
 * PolicyOptions#MAX_COMPONENTS} and reported by {@link #maxComponents()}.
 */
abstract class BoundedDepthPolicy extends AbstractPolicy {

  /** The bound k on the stack's components, at least 1. */
  final int k;

  BoundedDepthPolicy(String name, OptionValues options) {
    super(name, options);
    this.k = options.get(PolicyOptions.MAX_COMPONENTS);
  }

  /** The option table of a policy whose only option is k. */
  static OptionTable boundOnly(String name) {
    return OptionTable.of(name + " policy", List.of(PolicyOptions.MAX_COMPONENTS));
  }

  @Override
  public final int maxComponents() {
    return k;
  }
}
