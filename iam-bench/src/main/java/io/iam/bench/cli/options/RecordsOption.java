package io.iam.bench.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --records N}: how many records a command inserts. A picocli mixin without a default of its
 * own: each command gives it one in its {@link OptionDefaults} table; the command checks the range.
 */
public final class RecordsOption {

  @Option(names = "--records", paramLabel = "N", description = "Records to insert. Default: ${DEFAULT-VALUE}.")
  long records;

  /** The number of records. */
  public long count() {
    return records;
  }
}
