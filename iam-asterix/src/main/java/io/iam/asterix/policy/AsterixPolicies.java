package io.iam.asterix.policy;

import java.util.List;
import java.util.Optional;

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
      new IamStackMergePolicyFactory(),
      new LevelingMergePolicyFactory(),
      new TieringMergePolicyFactory());

  /** One instance of each factory. */
  public static List<IamMergePolicyFactory> all() {
    return ALL;
  }

  /** The factory users name {@code name} in {@code "merge-policy"}, exactly as AsterixDB matches it. */
  public static Optional<IamMergePolicyFactory> byName(String name) {
    return ALL.stream().filter(f -> f.getName().equals(name)).findFirst();
  }
}
