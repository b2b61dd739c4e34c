package io.iam.bench.cli.options;

import io.iam.bench.util.SizeConverter;
import picocli.CommandLine.Option;

/**
 * {@code --value-size SIZE}: the bytes of each record's value, as a size ({@code 100}, {@code 1KiB}).
 * A picocli mixin without a default of its own: each command gives it one in its {@link
 * OptionDefaults} table; the command checks the range.
 */
public final class ValueSizeOption {

  @Option(names = "--value-size", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "Bytes per value, e.g. 100, 1KiB. Default: ${DEFAULT-VALUE}.")
  long valueSize;

  /** The bytes of a value. */
  public long bytes() {
    return valueSize;
  }
}
