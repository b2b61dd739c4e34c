package io.iam.bench.asterix;

import io.iam.asterix.config.AsterixParameters;
import io.iam.asterix.policy.AsterixPolicies;
import io.iam.asterix.policy.IamMergePolicyFactory;
import io.iam.core.option.InvalidOptionsException;
import io.iam.core.option.Option;
import io.iam.core.option.OptionValues;
import io.iam.core.policy.ConcurrentPolicy;
import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.PrefixPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code merge-policy} of a dataset from {@code -o policy=NAME} and the policy's options, as
 * {@code CREATE DATASET … WITH} takes it. Pure.
 *
 * <ul>
 *   <li>IAM's policies ({@code binomial}, {@code minlatency}, … as {@link AsterixPolicies} names
 *       them) and AsterixDB's {@code prefix} and {@code concurrent}, which iam-core models: the options are the policy's iam-core option keys
 *       ({@code max-components}, {@code size-ratio}, …), validated with its option table and
 *       translated to AsterixDB's parameter names by {@link Option#asterixName()}. Every parameter
 *       the policy takes is written (AsterixDB requires them all), the ones not given at their
 *       defaults.
 *   <li>AsterixDB's other built-in policies ({@code constant}, {@code no-merge}, {@code
 *       correlated-prefix}): no IAM option table describes them, so the options
 *       go through under the names given, which must be AsterixDB's ({@code num-components}); AsterixDB
 *       checks them.
 *   <li>No policy: no clause, AsterixDB's default policy.
 * </ul>
 */
final class MergePolicyClause {

  /** AsterixDB 0.9.8's own policy names that have no IAM option table. */
  static final Set<String> ASTERIX_BUILT_IN = Set.of("constant", "no-merge", "correlated-prefix");
  /** AsterixDB's own policies that iam-core models, under the same names and parameters. */
  private static final List<String> ASTERIX_MODELED = List.of(PrefixPolicy.NAME, ConcurrentPolicy.NAME);
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");

  private final String name;
  private final Map<String, String> parameters;

  private MergePolicyClause(String name, Map<String, String> parameters) {
    this.name = name;
    this.parameters = parameters;
  }

  /**
   * The clause for {@code policy} with {@code options} (iam-core option keys).
   *
   * @throws InvalidOptionsException naming an unknown policy, an unknown option key or a bad value
   */
  static MergePolicyClause of(String policy, Map<String, String> options) {
    if (policy == null) {
      if (!options.isEmpty()) {
        throw new InvalidOptionsException("invalid asterixdb options", List.of("options " + options.keySet()
            + " are merge-policy options, but no policy is given (-o policy=NAME or --policy)"));
      }
      return new MergePolicyClause(null, Map.of());
    }
    String name = policy.trim();
    Optional<MergePolicies.Descriptor> described = describe(name);
    if (described.isEmpty()) {
      if (!ASTERIX_BUILT_IN.contains(name)) {
        List<String> known = new ArrayList<>(AsterixPolicies.all().stream().map(IamMergePolicyFactory::getName).toList());
        known.addAll(ASTERIX_MODELED);
        known.addAll(ASTERIX_BUILT_IN.stream().sorted().toList());
        throw new InvalidOptionsException("invalid asterixdb options",
            List.of("unknown merge policy '" + name + "' (known: " + String.join(", ", known) + ")"));
      }
      return new MergePolicyClause(name, new LinkedHashMap<>(options));
    }
    MergePolicies.Descriptor d = described.get();
    List<String> problems = new ArrayList<>();
    for (String key : options.keySet()) {
      Optional<Option<?>> o = d.options().find(key);
      if (o.isEmpty()) {
        problems.add("unknown option '" + key + "' for merge policy '" + name + "' (known: " + String.join(", ",
            d.options().options().stream().filter(x -> x.asterixName() != null).map(Option::key).toList()) + ")");
      } else if (o.get().asterixName() == null) {
        problems.add("option '" + key + "' of merge policy '" + name + "' cannot be set in AsterixDB");
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidOptionsException("invalid asterixdb options", problems);
    }
    OptionValues values = d.options().parse(options);
    Map<String, String> parameters = new LinkedHashMap<>();
    for (Option<?> o : d.options().options()) {
      if (o.asterixName() != null) {
        Object value = values.get(o);
        // AsterixDB's parameter record types size-ratio as a double, whichever policy takes it.
        parameters.put(o.asterixName(), AsterixParameters.DOUBLE_PARAMETERS.contains(o.asterixName())
            && value instanceof Number n ? Double.toString(n.doubleValue()) : literal(value));
      }
    }
    return new MergePolicyClause(name, parameters);
  }

  /** The iam-core policy behind an AsterixDB policy name, if IAM describes it. */
  private static Optional<MergePolicies.Descriptor> describe(String name) {
    Optional<IamMergePolicyFactory> ours = AsterixPolicies.byName(name);
    if (ours.isPresent()) {
      return Optional.of(ours.get().descriptor());
    }
    return ASTERIX_MODELED.contains(name) ? Optional.of(MergePolicies.descriptor(name)) : Optional.empty();
  }

  private static String literal(Object value) {
    return value instanceof Number ? value.toString() : quoted(value.toString());
  }

  private static String quoted(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** The policy's name, or null for AsterixDB's default. */
  String name() {
    return name;
  }

  /** AsterixDB's parameters by name, as SQL++ literals. */
  Map<String, String> parameters() {
    return parameters;
  }

  /** {@code "merge-policy": {...}} for a dataset's {@code WITH} clause; empty for AsterixDB's default policy. */
  Optional<String> field() {
    if (name == null) {
      return Optional.empty();
    }
    StringBuilder p = new StringBuilder();
    parameters.forEach((k, v) -> p.append(p.length() == 0 ? "" : ", ").append(quoted(k)).append(": ")
        .append(NUMBER.matcher(v).matches() || v.startsWith("\"") ? v : quoted(v)));
    return Optional.of("\"merge-policy\": {\"name\": " + quoted(name) + ", \"parameters\": {" + p + "}}");
  }
}
