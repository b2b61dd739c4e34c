package io.iam.bench.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --threads N} of the commands that load stores themselves: the stores' background threads.
 * ({@link ClientThreadsOption} is the {@code --threads} of the commands whose clients share a store.)
 * A picocli mixin without a default of its own: each command gives it one in its {@link
 * OptionDefaults} table; the command checks the range.
 */
public final class BackgroundThreadsOption {

  @Option(names = "--threads", paramLabel = "N",
      description = "Background threads for flushes and compactions (RocksDB: max_background_jobs;"
          + " 1 gives one flush and one compaction thread). Default: ${DEFAULT-VALUE}.")
  int threads;

  /** The number of background threads. */
  public int count() {
    return threads;
  }
}
