package io.iam.core.sim;

import io.iam.core.policy.MergePlan;
import io.iam.core.policy.StackSnapshot;

/**
 * Sees every decision of a simulation: the stack the policy was shown and the plan it returned,
 * before the simulator applies it. For tests, probes and benchmarks that need more than the
 * series; it must not keep the simulation from going on (it may throw to fail the run).
 */
@FunctionalInterface
public interface DecisionObserver {

  /** Called once per flush, in order. */
  void decided(StackSnapshot snapshot, MergePlan plan);
}
