package io.iam.bench.cli.options;

import io.iam.bench.load.LoadConfig;
import io.iam.bench.util.SizeConverter;
import picocli.CommandLine.Option;

/**
 * {@code --file-size SIZE} and {@code --level-base SIZE}: the table file size and level 1 capacity of
 * a leveled store. A picocli mixin whose defaults follow the memtable ({@link #fileSize} and {@link
 * #levelBase}), the same rule in every command, so unlike the other mixins of this package it takes
 * nothing from the command's {@link OptionDefaults} table; the command checks the range.
 */
public final class LevelSizeOptions {

  @Option(names = "--file-size", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "Target size of compaction output files. Default: the memtable size.")
  Long fileSize;

  @Option(names = "--level-base", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "Capacity of level 1 (max_bytes_for_level_base); each deeper level is 10 times the"
          + " one above. Default: 5 x the memtable size, as in the IAM paper's leveled setup.")
  Long levelBase;

  /** The target file size: {@code --file-size}, or else the memtable capacity. */
  public long fileSize(long memtableBytes) {
    return fileSize == null ? memtableBytes : fileSize;
  }

  /** The capacity of level 1: {@code --level-base}, or else 5 memtables. */
  public long levelBase(long memtableBytes) {
    return levelBase == null ? LoadConfig.DEFAULT_LEVEL_BASE_MEMTABLES * memtableBytes : levelBase;
  }
}
