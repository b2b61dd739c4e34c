package io.iam.core.option;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The one place a component declares its options. A table parses text key/value pairs into typed
 * {@link OptionValues}, rejects unknown keys and bad values (reporting all of them at once, each
 * naming the key, the value given and what is allowed), checks rules between fields, and renders
 * its own documentation. Tables are immutable and thread-safe.
 */
public final class OptionTable {

  /**
   * A rule between fields; returns a problem sentence, or empty when the values are fine. The
   * sentence names options by {@link OptionValues#nameOf}, as the user wrote them.
   */
  @FunctionalInterface
  public interface Rule extends Function<OptionValues, Optional<String>> {}

  private final String subject;
  private final Map<String, Option<?>> options;
  private final List<Rule> rules;

  private OptionTable(String subject, List<Option<?>> options, List<Rule> rules) {
    this.subject = subject;
    Map<String, Option<?>> byKey = new LinkedHashMap<>();
    for (Option<?> o : options) {
      if (byKey.put(o.key(), o) != null) {
        throw new IllegalArgumentException("option " + o.key() + " declared twice in " + subject);
      }
    }
    this.options = Collections.unmodifiableMap(byKey);
    this.rules = List.copyOf(rules);
  }

  /** A table for {@code subject} (used in error messages, e.g. "binomial policy"). */
  public static OptionTable of(String subject, List<Option<?>> options, Rule... rules) {
    return new OptionTable(subject, options, List.of(rules));
  }

  public String subject() {
    return subject;
  }

  /** The declared options, in declaration order. */
  public List<Option<?>> options() {
    return List.copyOf(options.values());
  }

  /** The option declared under {@code key}, if any. */
  public Optional<Option<?>> find(String key) {
    return Optional.ofNullable(options.get(key));
  }

  /** Every option at its default. */
  public OptionValues defaults() {
    return parse(Map.of());
  }

  /**
   * Parses and validates. Keys not given take their defaults.
   *
   * @throws InvalidOptionsException listing every unknown key, unreadable or out-of-range value,
   *     and broken rule
   */
  public OptionValues parse(Map<String, String> given) {
    return parse(given, key -> key);
  }

  /**
   * Like {@link #parse(Map)}, for options that the user wrote under other names (HBase's {@code
   * iam.compaction.max-components}, AsterixDB's {@code num-components}): {@code given} holds our
   * keys, and every message names each option as {@code shownAs} maps its key, as the user wrote
   * it.
   */
  public OptionValues parse(Map<String, String> given, UnaryOperator<String> shownAs) {
    List<String> problems = new ArrayList<>();
    for (String key : given.keySet()) {
      if (!options.containsKey(key)) {
        problems.add("unknown option '" + shownAs.apply(key) + "' (known: "
            + options.keySet().stream().map(shownAs).collect(Collectors.joining(", ")) + ")");
      }
    }
    Map<Option<?>, Object> values = new LinkedHashMap<>();
    for (Option<?> o : options.values()) {
      String text = given.get(o.key());
      values.put(o, text == null ? o.defaultValue() : read(o, shownAs.apply(o.key()), text, problems));
    }
    if (problems.isEmpty()) {
      OptionValues result = new OptionValues(this, values, shownAs);
      for (Rule rule : rules) {
        rule.apply(result).ifPresent(problems::add);
      }
      if (problems.isEmpty()) {
        return result;
      }
    }
    throw new InvalidOptionsException("invalid options for " + subject, problems);
  }

  private static <T extends Comparable<T>> T read(
      Option<T> o, String shownKey, String text, List<String> problems) {
    T value;
    try {
      value = o.type().parse(text);
    } catch (IllegalArgumentException e) {
      problems.add(shownKey + "='" + text + "' is not valid: " + e.getMessage());
      return o.defaultValue();
    }
    if (o.outOfBounds(value)) {
      problems.add(shownKey + "=" + text + " is out of range: allowed " + o.describeBounds());
    }
    return value;
  }

  /**
   * Renders the table as Markdown: key, type, default, allowed range, AsterixDB parameter, doc.
   *
   * @param propertyPrefix prefix shown before each key (for example {@code iam.compaction.}), or
   *     the empty string
   */
  public String toMarkdown(String propertyPrefix) {
    StringBuilder sb = new StringBuilder();
    sb.append("| key | type | default | allowed | AsterixDB parameter | meaning |\n");
    sb.append("|---|---|---|---|---|---|\n");
    for (Option<?> o : options.values()) {
      sb.append("| `")
          .append(propertyPrefix)
          .append(o.key())
          .append("` | ")
          .append(o.type().name())
          .append(" | ")
          .append(o.type().formatUnchecked(o.defaultValue()))
          .append(" | ")
          .append(o.describeBounds())
          .append(" | ")
          .append(o.asterixName() == null ? "—" : "`" + o.asterixName() + "`")
          .append(" | ")
          .append(o.doc())
          .append(" |\n");
    }
    return sb.toString();
  }
}
