package io.iam.core.table;

import io.iam.core.cache.BlockCache;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** An unbounded block cache keyed by (file number, offset), for tests. Thread-safe. */
final class MapCacheForTests implements BlockCache {

  private record Key(long file, long offset) {}

  private final Map<Key, byte[]> blocks = new ConcurrentHashMap<>();
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();

  @Override
  public byte[] get(long fileNumber, long offset, Loader loader) throws IOException {
    Key k = new Key(fileNumber, offset);
    byte[] b = blocks.get(k);
    if (b != null) {
      hits.incrementAndGet();
      return b;
    }
    misses.incrementAndGet();
    b = loader.load();
    blocks.put(k, b);
    return b;
  }

  @Override
  public void fill(long fileNumber, long offset, byte[] block) {
    blocks.putIfAbsent(new Key(fileNumber, offset), block);
  }

  @Override
  public void evictFile(long fileNumber) {
    blocks.keySet().removeIf(k -> k.file() == fileNumber);
  }

  @Override
  public byte[] peek(long fileNumber, long offset) {
    return blocks.get(new Key(fileNumber, offset));
  }

  @Override
  public boolean contains(long fileNumber, long offset) {
    return blocks.keySet().stream().anyMatch(k -> k.file() == fileNumber && k.offset() == offset);
  }

  @Override
  public long residentBlocks(long fileNumber) {
    return blocks.keySet().stream().filter(k -> k.file() == fileNumber).count();
  }

  @Override
  public long residentBytes(long fileNumber) {
    return blocks.entrySet().stream().filter(e -> e.getKey().file() == fileNumber).mapToLong(e -> e.getValue().length).sum();
  }

  @Override
  public long capacityBytes() {
    return Long.MAX_VALUE;
  }

  @Override
  public long usedBytes() {
    return blocks.values().stream().mapToLong(b -> b.length).sum();
  }

  @Override
  public long hits() {
    return hits.get();
  }

  @Override
  public long misses() {
    return misses.get();
  }
}
