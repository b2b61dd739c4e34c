package io.iam.bench.cli.options;

import io.iam.bench.util.SizeConverter;
import picocli.CommandLine.Option;

/**
 * {@code --cache SIZE}: the block cache capacity of the stores a command opens. A picocli mixin
 * without a default of its own: each command gives it one in its {@link OptionDefaults} table (a
 * size such as {@code 256MiB}, shown so in {@code --help}).
 */
public final class CacheOption {

  @Option(names = "--cache", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "Block cache capacity, index and filter blocks included. Default: ${DEFAULT-VALUE}.")
  long cache;

  /** The block cache capacity in bytes. */
  public long bytes() {
    return cache;
  }
}
