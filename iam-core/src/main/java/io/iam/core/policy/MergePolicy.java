package io.iam.core.policy;

import io.iam.core.option.OptionValues;

/**
 * A compaction policy for a stack of components: a pure function from a {@link StackSnapshot} to
 * a {@link MergePlan}. Implementations hold only their validated options; they do no I/O, read no
 * clock and keep no state between calls, so one instance can serve many stores and threads.
 *
 * <p>The policy is asked once after every flush, with the flushed component as the newest entry
 * of the snapshot. While any component is being merged it returns {@link MergePlan#none()} (the
 * stack it would reason about is about to change), as AsterixDB's built-in policies do.
 */
public interface MergePolicy {

  /** The registered name, such as {@code binomial}. */
  String name();

  /** The validated options this instance was built with. */
  OptionValues options();

  /**
   * The most components this policy leaves after a decision on a quiescent stack, or {@link
   * Integer#MAX_VALUE} if the policy is not depth-bounded.
   */
  int maxComponents();

  /** Decides what to merge. Never returns null. */
  MergePlan plan(StackSnapshot snapshot);
}
