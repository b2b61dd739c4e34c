package io.iam.core.option;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an option's value is written as text and read back. Every type round-trips:
 * {@code parse(format(v)).equals(v)} for every value {@code v} it can produce.
 *
 * @param <T> the Java type of the value; always {@link Comparable} so that bounds can be checked
 */
public abstract class OptionType<T extends Comparable<T>> {

  private final String name;

  private OptionType(String name) {
    this.name = name;
  }

  /** A short name used in documentation, such as {@code int} or {@code size}. */
  public String name() {
    return name;
  }

  /**
   * Reads a value.
   *
   * @throws IllegalArgumentException with a message that says what form was expected
   */
  public abstract T parse(String text);

  /** Writes a value in the canonical form that {@link #parse} reads back. */
  public abstract String format(T value);

  public static final OptionType<Integer> INT =
      new OptionType<>("int") {
        @Override
        public Integer parse(String text) {
          try {
            return Integer.valueOf(text.trim());
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a whole number");
          }
        }

        @Override
        public String format(Integer value) {
          return value.toString();
        }
      };

  public static final OptionType<Double> DOUBLE =
      new OptionType<>("decimal") {
        @Override
        public Double parse(String text) {
          try {
            double d = Double.parseDouble(text.trim());
            if (!Double.isFinite(d)) {
              throw new NumberFormatException();
            }
            return d;
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a finite decimal number");
          }
        }

        @Override
        public String format(Double value) {
          return value.toString();
        }
      };

  /**
   * A byte count. Accepts a plain number of bytes or a number with a binary unit
   * ({@code KiB, MiB, GiB, TiB}; {@code K, M, G, T} and {@code KB, MB, GB, TB} are read as the
   * same binary units, as HBase and RocksDB do). Formats with the largest unit that divides the
   * value exactly.
   */
  public static final OptionType<Long> SIZE =
      new OptionType<>("size") {
        private final Pattern form =
            Pattern.compile("(\\d+)\\s*([KMGT]?)(I?B)?", Pattern.CASE_INSENSITIVE);
        private final String[] units = {"", "KiB", "MiB", "GiB", "TiB"};

        @Override
        public Long parse(String text) {
          Matcher m = form.matcher(text.trim());
          if (!m.matches()) {
            throw new IllegalArgumentException(
                "expected a byte size such as 4096, 64KiB, 4MiB or 1GiB");
          }
          String unit = m.group(2).toUpperCase(Locale.ROOT);
          int shift = unit.isEmpty() ? 0 : 10 * ("KMGT".indexOf(unit) + 1);
          try {
            long base = Long.parseLong(m.group(1));
            if (base > (Long.MAX_VALUE >> shift)) {
              throw new NumberFormatException();
            }
            return base << shift;
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("byte size is too large");
          }
        }

        @Override
        public String format(Long value) {
          int unit = 0;
          long v = value;
          while (unit < units.length - 1 && v != 0 && (v & 1023) == 0) {
            v >>= 10;
            unit++;
          }
          return v + units[unit];
        }
      };

  /**
   * One constant of an enum, written in lower case with dashes ({@code TOLERATE_CORRUPTED_TAIL}
   * is {@code tolerate-corrupted-tail}); reading ignores case and accepts underscores.
   */
  public static <E extends Enum<E>> OptionType<E> enumOf(Class<E> type) {
    return new OptionType<>(type.getSimpleName()) {
      @Override
      public E parse(String text) {
        String wanted = text.trim().replace('-', '_');
        for (E e : type.getEnumConstants()) {
          if (e.name().equalsIgnoreCase(wanted)) {
            return e;
          }
        }
        StringBuilder allowed = new StringBuilder();
        for (E e : type.getEnumConstants()) {
          allowed.append(allowed.length() == 0 ? "" : ", ").append(format(e));
        }
        throw new IllegalArgumentException("expected one of " + allowed);
      }

      @Override
      public String format(E value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
      }
    };
  }

  /**
   * One of a fixed list of names (matched ignoring case, written in lower case), such as a
   * registered policy. Its bounds are the first and last name in sorted order, so every name lies
   * within them; docs and errors list the names themselves ({@link #choices()}).
   */
  public static OptionType<String> oneOf(String typeName, List<String> names) {
    List<String> sorted = names.stream().map(n -> n.toLowerCase(Locale.ROOT)).sorted().toList();
    return new OptionType<>(typeName) {
      @Override
      public String parse(String text) {
        String wanted = text.trim().toLowerCase(Locale.ROOT);
        if (!sorted.contains(wanted)) {
          throw new IllegalArgumentException("expected one of " + String.join(", ", sorted));
        }
        return wanted;
      }

      @Override
      public String format(String value) {
        return value;
      }

      @Override
      public List<String> choices() {
        return sorted;
      }
    };
  }

  /** The allowed names of a {@link #oneOf} type, sorted; null for the other types. */
  public List<String> choices() {
    return null;
  }

  @Override
  public String toString() {
    return name;
  }

  /** Formats a value of this type held in an untyped reference (it must be a {@code T}). */
  @SuppressWarnings("unchecked")
  String formatUnchecked(Object value) {
    return format((T) Objects.requireNonNull(value));
  }
}
