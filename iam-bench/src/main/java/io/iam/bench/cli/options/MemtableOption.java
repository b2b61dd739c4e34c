package io.iam.bench.cli.options;

import io.iam.bench.util.SizeConverter;
import picocli.CommandLine.Option;

/**
 * {@code --memtable SIZE}: the memtable capacity of the stores a command opens. A picocli mixin
 * without a default of its own: each command gives it one in its {@link OptionDefaults} table (a
 * size such as {@code 64MiB}, shown so in {@code --help}); the command checks the range.
 */
public final class MemtableOption {

  @Option(names = "--memtable", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "Memtable capacity (RocksDB: write_buffer_size, 2 memtables). Default: ${DEFAULT-VALUE}.")
  long memtable;

  /** The memtable capacity in bytes. */
  public long bytes() {
    return memtable;
  }
}
