package io.iam.core.table;

import io.iam.core.cache.BlockCache;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/** A block cache that keeps nothing: every get calls the loader. Counts the loads. Thread-safe. */
final class NoCacheForTests implements BlockCache {

  private final AtomicLong loads = new AtomicLong();

  long loads() {
    return loads.get();
  }

  @Override
  public byte[] get(long fileNumber, long offset, Loader loader) throws IOException {
    loads.incrementAndGet();
    return loader.load();
  }

  @Override
  public void fill(long fileNumber, long offset, byte[] block) {}

  @Override
  public void evictFile(long fileNumber) {}

  @Override
  public byte[] peek(long fileNumber, long offset) {
    return null;
  }

  @Override
  public boolean contains(long fileNumber, long offset) {
    return false;
  }

  @Override
  public long residentBlocks(long fileNumber) {
    return 0;
  }

  @Override
  public long residentBytes(long fileNumber) {
    return 0;
  }

  @Override
  public long capacityBytes() {
    return 0;
  }

  @Override
  public long usedBytes() {
    return 0;
  }

  @Override
  public long hits() {
    return 0;
  }

  @Override
  public long misses() {
    return loads.get();
  }
}
