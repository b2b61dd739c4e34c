package io.iam.core.policy;

import io.iam.core.option.OptionValues;

/** Holds what every policy has: its name and validated options. Subclasses add the rule. */
abstract class AbstractPolicy implements MergePolicy {

  private final String name;
  private final OptionValues options;

  AbstractPolicy(String name, OptionValues options) {
    this.name = name;
    this.options = options;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final OptionValues options() {
    return options;
  }

  @Override
  public final MergePlan plan(StackSnapshot snapshot) {
    if (snapshot.size() < 2 || snapshot.anyMerging()) {
      return MergePlan.none();
    }
    return planQuiescent(snapshot);
  }

  /** Decides on a stack of at least two components of which none is being merged. */
  abstract MergePlan planQuiescent(StackSnapshot snapshot);

  @Override
  public String toString() {
    return name + "{" + options + "}";
  }
}
