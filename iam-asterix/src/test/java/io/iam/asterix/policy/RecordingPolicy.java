package io.iam.asterix.policy;

import io.iam.core.option.OptionValues;
import io.iam.core.policy.MergePlan;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.StackSnapshot;
import java.util.ArrayList;
import java.util.List;

/** A kernel policy that remembers every stack it was shown and what it answered. Thread-safe. */
final class RecordingPolicy implements MergePolicy {

  /** One question and its answer. */
  record Decision(StackSnapshot snapshot, MergePlan plan) {}

  private final MergePolicy delegate;
  private final List<Decision> decisions = new ArrayList<>();

  RecordingPolicy(MergePolicy delegate) {
    this.delegate = delegate;
  }

  synchronized List<Decision> decisions() {
    return List.copyOf(decisions);
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public OptionValues options() {
    return delegate.options();
  }

  @Override
  public int maxComponents() {
    return delegate.maxComponents();
  }

  @Override
  public synchronized MergePlan plan(StackSnapshot snapshot) {
    MergePlan plan = delegate.plan(snapshot);
    decisions.add(new Decision(snapshot, plan));
    return plan;
  }
}
