package io.iam.asterix.policy;

import java.util.List;

/**
 * Every merge-policy factory this module gives AsterixDB, in one list: the NC application registers
 * them for persistence and the start-up hook maps their names in AsterixDB's metadata from here.
 */
public final class AsterixPolicies {

  private AsterixPolicies() {}

  private static final List<IamMergePolicyFactory> ALL = List.of(
      new BinomialMergePolicyFactory(),
      new MinLatencyMergePolicyFactory(),
      new BigtableMergePolicyFactory(),
      new ExploringMergePolicyFactory(),
      new IamConstantMergePolicyFactory(),
      new SizeTieredMergePolicyFactory(),
      new IamStackMergePolicyFactory());

  /** One instance of each factory. */
  public static List<IamMergePolicyFactory> all() {
    return ALL;
  }
}
