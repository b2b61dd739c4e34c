package io.iam.asterix.config;

import io.iam.core.option.InvalidOptionsException;
import io.iam.core.option.Option;
import io.iam.core.option.OptionType;
import io.iam.core.option.OptionValues;
import io.iam.core.policy.MergePolicies;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Translates between AsterixDB's {@code merge-policy} parameters and a policy's options. AsterixDB
 * accepts only a closed set of parameter names, so each option that can be set from AsterixDB
 * declares the name it takes there ({@link Option#asterixName()}, for example {@code
 * max-components} is {@code num-components}); options without one keep their defaults. Pure.
 */
public final class AsterixParameters {

  /**
   * The parameters AsterixDB's {@code merge-policy} record types as a double: a statement must give
   * {@code "size-ratio": 10.0} even to a policy whose ratio is a whole number, so {@link #parse}
   * takes a whole number written with a zero fraction for an integer option.
   */
  public static final Set<String> DOUBLE_PARAMETERS = Set.of("size-ratio");

  private static final Pattern WHOLE_WITH_ZERO_FRACTION = Pattern.compile("(-?[0-9]+)\\.0+");

  private AsterixParameters() {}

  /** The AsterixDB parameter names {@code policy} accepts. */
  public static Set<String> names(MergePolicies.Descriptor policy) {
    Set<String> names = new LinkedHashSet<>();
    for (Option<?> o : policy.options().options()) {
      if (o.asterixName() != null) {
        names.add(o.asterixName());
      }
    }
    return names;
  }

  /**
   * Parses AsterixDB parameters into {@code policy}'s options.
   *
   * @param asterixPolicyName the name the user wrote, for messages
   * @throws InvalidOptionsException naming every unknown parameter and bad value by its AsterixDB
   *     name
   */
  public static OptionValues parse(MergePolicies.Descriptor policy, String asterixPolicyName,
      Map<String, String> parameters) {
    Map<String, String> byKey = new TreeMap<>();
    // Every message names an option as AsterixDB does, given or not (a rule between fields may
    // name one the user left at its default).
    Map<String, String> shown = new TreeMap<>();
    for (Option<?> o : policy.options().options()) {
      if (o.asterixName() != null) {
        shown.put(o.key(), o.asterixName());
      }
    }
    List<String> unknown = new ArrayList<>();
    for (Map.Entry<String, String> e : parameters.entrySet()) {
      Option<?> option = policy.options().options().stream()
          .filter(o -> e.getKey().equals(o.asterixName())).findFirst().orElse(null);
      if (option == null) {
        unknown.add("unknown parameter '" + e.getKey() + "' for merge policy '" + asterixPolicyName
            + "' (known: " + String.join(", ", names(policy)) + ")");
      } else {
        String value = e.getValue().trim();
        Matcher whole = WHOLE_WITH_ZERO_FRACTION.matcher(value);
        byKey.put(option.key(), option.type() == OptionType.INT && whole.matches() ? whole.group(1) : value);
      }
    }
    if (!unknown.isEmpty()) {
      throw new InvalidOptionsException("invalid merge policy parameters", unknown);
    }
    return policy.options().parse(byKey, key -> shown.getOrDefault(key, key));
  }

  /**
   * {@code policy}'s AsterixDB parameters as a Markdown table (parameter, type, default, allowed,
   * meaning), followed by a line naming the options AsterixDB cannot set and their fixed values.
   * docs/asterixdb.md holds one per policy, checked against this.
   */
  public static String toMarkdown(MergePolicies.Descriptor policy) {
    StringBuilder table = new StringBuilder()
        .append("| parameter | type | default | allowed | meaning |\n")
        .append("|---|---|---|---|---|\n");
    List<String> fixed = new ArrayList<>();
    for (Option<?> o : policy.options().options()) {
      if (o.asterixName() == null) {
        fixed.add("`" + o.key() + "` = " + formatDefault(o));
      } else {
        table.append("| `").append(o.asterixName()).append("` | ").append(o.type().name())
            .append(" | ").append(formatDefault(o)).append(" | ").append(o.describeBounds())
            .append(" | ").append(o.doc()).append(" |\n");
      }
    }
    if (!fixed.isEmpty()) {
      table.append("\nNot settable from AsterixDB, so always at the default: ")
          .append(String.join(", ", fixed)).append(".\n");
    }
    return table.toString();
  }

  private static <T extends Comparable<T>> String formatDefault(Option<T> o) {
    return o.type().format(o.defaultValue());
  }
}
