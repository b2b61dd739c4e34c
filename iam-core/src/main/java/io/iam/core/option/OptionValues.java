package io.iam.core.option;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Validated, typed option values produced by {@link OptionTable#parse}. Immutable. Printing with
 * {@link #asStrings()} and parsing the result again yields equal values.
 */
public final class OptionValues {

  private final OptionTable table;
  private final Map<Option<?>, Object> values;
  private final UnaryOperator<String> shownAs;

  OptionValues(OptionTable table, Map<Option<?>, Object> values, UnaryOperator<String> shownAs) {
    this.table = table;
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    this.shownAs = shownAs;
  }

  /** The value of an option of this table. */
  public <T extends Comparable<T>> T get(Option<T> option) {
    Object v = values.get(option);
    if (v == null) {
      throw new IllegalArgumentException(
          "option " + option.key() + " is not declared in " + table.subject());
    }
    @SuppressWarnings("unchecked")
    T t = (T) v;
    return t;
  }

  /**
   * The name the user gave {@code option} under, for messages: its key, or the host's name for it
   * when parsed with {@link OptionTable#parse(Map, UnaryOperator)} (HBase's {@code
   * iam.compaction.max-components}, AsterixDB's {@code num-components}). Not part of equality.
   */
  public String nameOf(Option<?> option) {
    return shownAs.apply(option.key());
  }

  public OptionTable table() {
    return table;
  }

  /** Every value in canonical text form, in declaration order. */
  public Map<String, String> asStrings() {
    Map<String, String> out = new LinkedHashMap<>();
    values.forEach((o, v) -> out.put(o.key(), o.type().formatUnchecked(v)));
    return Collections.unmodifiableMap(out);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OptionValues other
        && other.table == table
        && other.values.equals(values);
  }

  @Override
  public int hashCode() {
    return Objects.hash(table.subject(), values);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    asStrings().forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(v));
    return sb.toString();
  }
}
