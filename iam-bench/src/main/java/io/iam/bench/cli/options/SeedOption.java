package io.iam.bench.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --seed N}: the seed of a command's pseudo-random draws; what it draws is in the command's
 * description. A picocli mixin without a default of its own: each command gives it one in its {@link
 * OptionDefaults} table.
 */
public final class SeedOption {

  @Option(names = "--seed", paramLabel = "N",
      description = "Seed of the random draws (the command's description says which). Default: ${DEFAULT-VALUE}.")
  long seed;

  /** The seed. */
  public long value() {
    return seed;
  }
}
