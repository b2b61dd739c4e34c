package io.iam.core.engine;

/** How table files are read when the block cache misses. */
public enum TableReads {
  /** Through the operating system's page cache, which may hold the data already. */
  BUFFERED,
  /**
   * With {@code O_DIRECT}, around the page cache ({@link io.iam.core.fs.DirectReadFs}), as RocksDB's
   * {@code use_direct_reads}: every block-cache miss is a device read, as on a machine whose memory
   * does not hold the data. For benchmarks of caching; local file systems only.
   */
  DIRECT
}
