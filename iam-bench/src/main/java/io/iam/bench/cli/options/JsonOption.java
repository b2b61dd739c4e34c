package io.iam.bench.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --json}: also print the results as one JSON object on the last line of stdout, after the
 * report. A picocli mixin; a switch, off unless given, so it needs no entry in the command's {@link
 * OptionDefaults} table.
 */
public final class JsonOption {

  @Option(names = "--json", description = "Also print the results as one JSON object on the last line of stdout.")
  boolean json;

  /** Whether {@code --json} was given. */
  public boolean enabled() {
    return json;
  }
}
