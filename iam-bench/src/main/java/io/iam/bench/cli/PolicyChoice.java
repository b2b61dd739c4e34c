package io.iam.bench.cli;

import io.iam.core.option.InvalidOptionsException;
import io.iam.core.option.Option;
import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.PolicyOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a policy from what the command line gave: a name, the {@code --k} shortcut and {@code -o
 * key=value} pairs. All validation is the registry's ({@link MergePolicies.Descriptor#create});
 * this class only adds the rules of the shortcut.
 */
final class PolicyChoice {

  /** The option {@code --k} stands for. */
  static final String K_KEY = PolicyOptions.MAX_COMPONENTS.key();

  private PolicyChoice() {}

  /**
   * @param k the {@code --k} value, or {@code null}
   * @throws InvalidOptionsException for an unknown policy, a {@code --k} the policy has no use
   *     for, or options its table rejects
   */
  static MergePolicy create(String name, Integer k, Map<String, String> options) {
    MergePolicies.Descriptor d = MergePolicies.descriptor(name);
    Map<String, String> given = new LinkedHashMap<>(options);
    if (k != null) {
      if (d.options().find(K_KEY).isEmpty()) {
        throw new InvalidOptionsException(
            "invalid options for " + d.options().subject(),
            List.of("--k sets " + K_KEY + ", which the " + d.name() + " policy does not have"
                + " (its options: " + keys(d) + ")"));
      }
      if (given.containsKey(K_KEY)) {
        throw new InvalidOptionsException(
            "invalid options for " + d.options().subject(),
            List.of("--k " + k + " and -o " + K_KEY + "=" + given.get(K_KEY)
                + " both set " + K_KEY + "; give one"));
      }
      given.put(K_KEY, k.toString());
    }
    return d.create(given);
  }

  private static String keys(MergePolicies.Descriptor d) {
    return String.join(", ", d.options().options().stream().map(Option::key).toList());
  }
}
