package io.iam.core.option;

import java.util.Objects;

/**
 * One declared option: its key, type, default, inclusive bounds and a one-line doc. Options are
 * declared once, as constants, and collected into an {@link OptionTable}; everything else
 * (parsing, validation, documentation, the HBase and AsterixDB property names) is derived from
 * the declaration.
 *
 * @param <T> the value type
 */
public final class Option<T extends Comparable<T>> {

  private final String key;
  private final OptionType<T> type;
  private final T defaultValue;
  private final T min;
  private final T max;
  private final String doc;
  private final String asterixName;

  private Option(Builder<T> b) {
    this.key = Objects.requireNonNull(b.key, "key");
    this.type = Objects.requireNonNull(b.type, "type");
    this.defaultValue = Objects.requireNonNull(b.defaultValue, "default of " + b.key);
    this.min = Objects.requireNonNull(b.min, "min of " + b.key);
    this.max = Objects.requireNonNull(b.max, "max of " + b.key);
    this.doc = Objects.requireNonNull(b.doc, "doc of " + b.key);
    this.asterixName = b.asterixName;
    if (!key.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*")) {
      throw new IllegalArgumentException("option keys are lower-case-with-dashes: " + key);
    }
    if (min.compareTo(max) > 0 || outOfBounds(defaultValue)) {
      throw new IllegalArgumentException("default of " + key + " lies outside its bounds");
    }
  }

  /** Starts the declaration of an option. */
  public static <T extends Comparable<T>> Builder<T> builder(String key, OptionType<T> type) {
    return new Builder<>(key, type);
  }

  public String key() {
    return key;
  }

  public OptionType<T> type() {
    return type;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public T min() {
    return min;
  }

  public T max() {
    return max;
  }

  public String doc() {
    return doc;
  }

  /**
   * The name of the AsterixDB {@code merge-policy} parameter this option maps to, or
   * {@code null} when AsterixDB's closed parameter record has no slot for it.
   */
  public String asterixName() {
    return asterixName;
  }

  boolean outOfBounds(T value) {
    return value.compareTo(min) < 0 || value.compareTo(max) > 0;
  }

  /** The allowed range in words, for error messages and docs. */
  public String describeBounds() {
    if (type.choices() != null) {
      return String.join(", ", type.choices());
    }
    if (min instanceof Enum<?> lo && max instanceof Enum<?> hi) {
      StringBuilder sb = new StringBuilder();
      for (Object c : lo.getDeclaringClass().getEnumConstants()) {
        int ordinal = ((Enum<?>) c).ordinal();
        if (ordinal >= lo.ordinal() && ordinal <= hi.ordinal()) {
          sb.append(sb.length() == 0 ? "" : ", ").append(type.formatUnchecked(c));
        }
      }
      return sb.toString();
    }
    return type.format(min) + " to " + type.format(max);
  }

  @Override
  public String toString() {
    return key + " (" + type + ", default " + type.format(defaultValue) + ")";
  }

  /** Builds an {@link Option}; bounds default to the widest the caller gives. */
  public static final class Builder<T extends Comparable<T>> {
    private final String key;
    private final OptionType<T> type;
    private T defaultValue;
    private T min;
    private T max;
    private String doc;
    private String asterixName;

    private Builder(String key, OptionType<T> type) {
      this.key = key;
      this.type = type;
    }

    public Builder<T> defaultValue(T value) {
      this.defaultValue = value;
      return this;
    }

    /** Inclusive bounds. */
    public Builder<T> bounds(T min, T max) {
      this.min = min;
      this.max = max;
      return this;
    }

    public Builder<T> doc(String doc) {
      this.doc = doc;
      return this;
    }

    /** See {@link Option#asterixName()}. */
    public Builder<T> asterixName(String name) {
      this.asterixName = name;
      return this;
    }

    public Option<T> build() {
      return new Option<>(this);
    }
  }
}
