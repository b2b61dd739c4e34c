package io.iam.bench.load;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How {@code iam load} writes the constants of its enum options: lower case ({@code hash}, {@code zipfian}). */
final class CliNames {

  private CliNames() {}

  /** The constant in lower case. */
  static String of(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT);
  }

  /**
   * The constant whose lower-case name is {@code text} (any case, surrounding blanks ignored).
   *
   * @throws IllegalArgumentException naming the text and every constant: "'x' is not one of: a, b"
   */
  static <E extends Enum<E>> E parse(Class<E> type, String text) {
    String wanted = text.trim().toLowerCase(Locale.ROOT);
    for (E constant : type.getEnumConstants()) {
      if (of(constant).equals(wanted)) {
        return constant;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not one of: "
        + Arrays.stream(type.getEnumConstants()).map(CliNames::of).collect(Collectors.joining(", ")));
  }
}
