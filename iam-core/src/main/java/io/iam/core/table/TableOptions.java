package io.iam.core.table;

/**
 * How table files are written. Immutable; validated on construction.
 *
 * @param blockSize target payload size of a data block in bytes (a block is cut once it reaches
 *     this size, so a block holding one large entry can be larger); 256 to 64 MiB, default 4096
 * @param bloomBitsPerKey Bloom filter bits per distinct user key of each sequence; 0 writes no
 *     filter; at most 64; default 14 (about 0.1% false positives)
 * @param restartInterval keys between restart points in a data block (prefix compression restarts
 *     there, and seeks binary-search them); 1 to 65536, default 16
 */
public record TableOptions(int blockSize, int bloomBitsPerKey, int restartInterval) {

  /** 4 KiB blocks, 14 Bloom bits per key, a restart every 16 keys (the paper's settings). */
  public static final TableOptions DEFAULT = new TableOptions(4096, 14, 16);

  /**
   * @throws IllegalArgumentException if a value is out of range
   */
  public TableOptions {
    if (blockSize < 256 || blockSize > (64 << 20)) {
      throw new IllegalArgumentException("blockSize must be in [256, 64 MiB]: " + blockSize);
    }
    if (bloomBitsPerKey < 0 || bloomBitsPerKey > 64) {
      throw new IllegalArgumentException("bloomBitsPerKey must be in [0, 64]: " + bloomBitsPerKey);
    }
    if (restartInterval < 1 || restartInterval > 65536) {
      throw new IllegalArgumentException("restartInterval must be in [1, 65536]: " + restartInterval);
    }
  }

  public static TableOptions defaults() {
    return DEFAULT;
  }

  public TableOptions withBlockSize(int v) {
    return new TableOptions(v, bloomBitsPerKey, restartInterval);
  }

  public TableOptions withBloomBitsPerKey(int v) {
    return new TableOptions(blockSize, v, restartInterval);
  }

  public TableOptions withRestartInterval(int v) {
    return new TableOptions(blockSize, bloomBitsPerKey, v);
  }
}
