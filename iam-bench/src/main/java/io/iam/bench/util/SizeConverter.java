package io.iam.bench.util;

import io.iam.core.option.OptionType;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A picocli converter for byte sizes as {@link OptionType#SIZE} reads them: {@code 4096}, {@code
 * 64KiB}, {@code 4MiB}.
 */
public final class SizeConverter implements ITypeConverter<Long> {

  @Override
  public Long convert(String value) {
    return parse(value);
  }

  /**
   * Reads a byte size.
   *
   * @throws TypeConversionException naming the text and the expected form
   */
  public static long parse(String text) {
    try {
      return OptionType.SIZE.parse(text);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException("'" + text + "': " + e.getMessage());
    }
  }
}
