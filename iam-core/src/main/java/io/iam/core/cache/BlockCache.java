package io.iam.core.cache;

import java.io.IOException;

/**
 * One bounded cache of decoded, checksum-verified blocks, shared by every table file of a store.
 * Besides caching, it knows exactly how many blocks (and bytes) of each file are resident: the
 * IAM-tree chooses between appending and merging from that number (the paper sampled it with
 * mincore; we count it). Thread-safe.
 */
public interface BlockCache {

  /** Reads a block from disk, verifying it; called on a miss. */
  @FunctionalInterface
  interface Loader {
    byte[] load() throws IOException;
  }

  /**
   * The block of file {@code fileNumber} at {@code offset}: from the cache, or loaded with {@code
   * loader} and inserted (a block larger than the whole cache is returned without being kept).
   */
  byte[] get(long fileNumber, long offset, Loader loader) throws IOException;

  /**
   * Puts a block that was just written into the cache, as if it had been read (unless it is
   * resident already or larger than the whole cache). Counted neither as a hit nor as a miss: no
   * read asked for it.
   */
  void fill(long fileNumber, long offset, byte[] block);

  /**
   * {@link #fill} for a block whose sequence its writer will have the cache protect (the IAM-tree's
   * appended sequences, §5.1.3), before the cache has been told so: a cache with a protected pool
   * puts it there at once, so a fill never loses its room to the wait. Other caches fill as usual.
   */
  default void fillProtected(long fileNumber, long offset, byte[] block) {
    fill(fileNumber, offset, block);
  }

  /** Drops every block of a file (called when the file is deleted or rewritten). */
  void evictFile(long fileNumber);

  /** Blocks of the file now in the cache. */
  long residentBlocks(long fileNumber);

  /**
   * The block at {@code offset} of file {@code fileNumber} if it is resident and the cache can
   * hand it over without touching its recency, else null; counts neither a hit nor a miss. For a
   * compaction's reads, which use resident blocks but leave the cache as it was (RocksDB's {@code
   * fill_cache=false}). The array is shared: callers must not modify it.
   */
  byte[] peek(long fileNumber, long offset);

  /** Whether the block at {@code offset} of file {@code fileNumber} is resident; does not touch its recency. */
  boolean contains(long fileNumber, long offset);

  /** Bytes of the file now in the cache. */
  long residentBytes(long fileNumber);

  long capacityBytes();

  long usedBytes();

  long hits();

  long misses();
}
