package io.iam.core.policy;

import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionValues;

/**
 * Constant (AsterixDB before 0.9.4): while fewer than k SSTables exist, a flush adds one; once k
 * exist, the flush and all of them are merged into one.
 */
public final class ConstantPolicy extends BoundedDepthPolicy {

  public static final String NAME = "constant";
  public static final OptionTable OPTIONS = boundOnly(NAME);

  public ConstantPolicy(OptionValues options) {
    super(NAME, options);
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int sstables = s.size() - 1; // the newest component is the flush
    return sstables < k ? MergePlan.none() : MergePlan.merge(0, s.size() - 1);
  }
}
