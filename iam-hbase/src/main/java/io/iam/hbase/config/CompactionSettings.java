package io.iam.hbase.config;

import io.iam.core.option.InvalidOptionsException;
import io.iam.core.option.Option;
import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads the stack policy a store should run from HBase properties. Every name and default comes
 * from iam-core's option tables: the policy is {@value #POLICY_KEY}, and each option {@code key}
 * of a policy is the property {@code iam.compaction.<key>} (for example {@code
 * iam.compaction.max-components}).
 *
 * <p>The region server and the master read the same properties with this one class, so a value
 * the master accepts is a value the region server runs. Pure: no HBase types, no I/O.
 */
public final class CompactionSettings {

  /** Prefix of every stack-policy property. */
  public static final String PREFIX = "iam.compaction.";

  /** The property that names the policy. */
  public static final String POLICY_KEY = PREFIX + "policy";

  /**
   * The policy when {@value #POLICY_KEY} is not set: the paper's version of HBase's own default,
   * so that installing the jar changes which code decides, not what kind of decision is made.
   */
  public static final String DEFAULT_POLICY = "exploring";

  private final MergePolicy policy;
  private final List<String> ignoredKeys;

  private CompactionSettings(MergePolicy policy, List<String> ignoredKeys) {
    this.policy = policy;
    this.ignoredKeys = ignoredKeys;
  }

  /**
   * Parses the {@code iam.compaction.*} entries among {@code properties} (other keys are not
   * looked at).
   *
   * @throws InvalidOptionsException naming every unknown policy, unknown key and bad value, with
   *     the property names the user wrote
   */
  public static CompactionSettings parse(Iterable<Map.Entry<String, String>> properties) {
    Map<String, String> given = PrefixedProperties.under(PREFIX, properties);
    String name = given.remove("policy");
    MergePolicies.Descriptor descriptor;
    try {
      descriptor = MergePolicies.descriptor(name == null || name.isEmpty() ? DEFAULT_POLICY : name);
    } catch (InvalidOptionsException e) {
      throw new InvalidOptionsException("invalid HBase compaction properties",
          List.of(POLICY_KEY + "='" + name + "': " + String.join("; ", e.problems())));
    }

    Map<String, String> own = new TreeMap<>();
    List<String> ignored = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    Set<String> anyPolicyKeys = keysOfEveryPolicy();
    for (Map.Entry<String, String> e : given.entrySet()) {
      if (descriptor.options().find(e.getKey()).isPresent()) {
        own.put(e.getKey(), e.getValue());
      } else if (anyPolicyKeys.contains(e.getKey())) {
        // Another policy's option, for example set cluster-wide: harmless for this store.
        ignored.add(PREFIX + e.getKey());
      } else {
        unknown.add("unknown property '" + PREFIX + e.getKey() + "' (known: " + POLICY_KEY + ", "
            + String.join(", ", anyPolicyKeys.stream().map(k -> PREFIX + k).toList()) + ")");
      }
    }
    if (!unknown.isEmpty()) {
      throw new InvalidOptionsException("invalid HBase compaction properties", unknown);
    }
    MergePolicy policy = descriptor.factory().apply(descriptor.options().parse(own, key -> PREFIX + key));
    return new CompactionSettings(policy, List.copyOf(ignored));
  }

  /** The policy to run, built from validated options. */
  public MergePolicy policy() {
    return policy;
  }

  /** Properties that belong to other policies than the one chosen; they have no effect. */
  public List<String> ignoredKeys() {
    return ignoredKeys;
  }

  private static Set<String> keysOfEveryPolicy() {
    Set<String> keys = new LinkedHashSet<>();
    for (MergePolicies.Descriptor d : MergePolicies.all()) {
      for (Option<?> o : d.options().options()) {
        keys.add(o.key());
      }
    }
    return keys;
  }
}
