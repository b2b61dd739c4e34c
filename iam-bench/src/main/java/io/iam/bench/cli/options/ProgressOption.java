package io.iam.bench.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --no-progress}: do not draw the progress bars on stderr. A picocli mixin; a switch, off
 * unless given, so it needs no entry in the command's {@link OptionDefaults} table.
 */
public final class ProgressOption {

  @Option(names = "--no-progress", description = "Do not draw the progress bars (on stderr).")
  boolean noProgress;

  /** Whether the progress bars are drawn: unless {@code --no-progress} was given. */
  public boolean enabled() {
    return !noProgress;
  }
}
