package io.iam.bench.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --threads T} of the YCSB commands: the client threads that share a store, YCSB's {@code
 * threadcount}. ({@link BackgroundThreadsOption} is the {@code --threads} of the commands that load
 * stores themselves.) A picocli mixin without a default of its own: each command gives it one in its
 * {@link OptionDefaults} table; the command checks the range.
 */
public final class ClientThreadsOption {

  @Option(names = "--threads", paramLabel = "T",
      description = "Client threads (YCSB's threadcount). Default: ${DEFAULT-VALUE}.")
  int threads;

  /** The number of client threads. */
  public int count() {
    return threads;
  }
}
