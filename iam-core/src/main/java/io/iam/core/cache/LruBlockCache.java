package io.iam.core.cache;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.cache.RemovalNotification;
import com.google.common.collect.ImmutableMap;
import com.google.common.util.concurrent.ExecutionError;
import com.google.common.util.concurrent.UncheckedExecutionException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link BlockCache} with least-recently-used eviction, built on Guava's {@link Cache}.
 *
 * <p><b>Weight.</b> Every resident block weighs its length plus {@link #ENTRY_OVERHEAD_BYTES}
 * (an estimate of the key, the map entry and the array header). The sum of the weights is {@link
 * #usedBytes()} and never exceeds {@link #capacityBytes()}: the cache uses a single Guava segment
 * ({@code concurrencyLevel(1)}), so the bound is exact rather than split per segment, and the
 * eviction order is exact LRU. The price is that insertions (misses) serialize on one lock; hits
 * stay lock-free. A block whose weight exceeds the capacity is returned but never kept, so with
 * capacity 0 every get calls its loader.
 *
 * <p><b>Residency.</b> {@link #residentBlocks(long)} and {@link #residentBytes(long)} count the
 * blocks of a file (bytes are block lengths, without the overhead), so {@code usedBytes() ==
 * Σ residentBytes(f) + ENTRY_OVERHEAD_BYTES · Σ residentBlocks(f)}. A block is counted when its
 * load succeeds (just before Guava stores it) and uncounted by the synchronous removal listener,
 * so while no call is in progress all counts equal what the cache holds. While other threads are
 * inside {@code get}, counts (and {@code usedBytes()}) may briefly include blocks being stored or
 * whose removal has not yet been reported, so {@code usedBytes()} can transiently exceed the
 * capacity by the blocks in flight; Guava's own total never does.
 *
 * <p><b>Eviction of a file.</b> The cache keeps, per file, the offsets of its resident blocks;
 * {@link #evictFile(long)} therefore costs O(blocks of that file), independent of the cache size.
 * Blocks of the file loaded concurrently with {@code evictFile} may survive it (files are evicted
 * once nothing reads them any more).
 *
 * <p>Thread-safe. Concurrent gets of the same missing block call one loader; the others wait and
 * receive its block (or its exception).
 */
public final class LruBlockCache implements BlockCache {

  /** Bytes added to each block's length when weighing it against the capacity. */
  public static final int ENTRY_OVERHEAD_BYTES = 64;

  /** The cache key: a block is named by its file and its offset in the file. */
  record BlockKey(long fileNumber, long offset) {}

  /** Per-file residency; mutated only inside {@code files.compute} (under the map's bin lock). */
  private static final class Residency {
    /** Offset → copies counted (normally 1; 2 while an evicted copy's removal is unreported). */
    final Map<Long, Integer> offsets = new HashMap<>();

    volatile long blocks;
    volatile long bytes;
  }

  /** Carries a block too large to keep out of Guava's loader without storing it. */
  private static final class NotCached extends Exception {
    private static final long serialVersionUID = 1L;

    final transient byte[] block;

    NotCached(byte[] block) {
      super(null, null, false, false);
      this.block = block;
    }
  }

  private final long capacity;
  private final Cache<BlockKey, byte[]> cache;
  private final ConcurrentHashMap<Long, Residency> files = new ConcurrentHashMap<>();
  private final AtomicLong used = new AtomicLong();
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  /**
   * @param capacityBytes the most bytes (block lengths plus per-entry overhead) kept; 0 keeps
   *     nothing
   */
  public LruBlockCache(long capacityBytes) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("negative capacity: " + capacityBytes);
    }
    this.capacity = capacityBytes;
    this.cache =
        CacheBuilder.newBuilder()
            .concurrencyLevel(1)
            .maximumWeight(capacityBytes)
            .weigher((BlockKey k, byte[] block) -> block.length + ENTRY_OVERHEAD_BYTES)
            .removalListener((RemovalNotification<BlockKey, byte[]> n) -> onRemoval(n))
            .build();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The returned array is shared with the cache and other readers: callers must not modify it.
   *
   * @throws IOException exactly as thrown by {@code loader} (nothing is cached then)
   */
  @Override
  public byte[] get(long fileNumber, long offset, Loader loader) throws IOException {
    return lookup(new BlockKey(fileNumber, offset), Objects.requireNonNull(loader, "loader"), true);
  }

  @Override
  public void fill(long fileNumber, long offset, byte[] block) {
    Objects.requireNonNull(block, "block");
    try {
      lookup(new BlockKey(fileNumber, offset), () -> block, false);
    } catch (IOException e) {
      throw new IllegalStateException("a fill loads nothing", e);
    }
  }

  /** {@link #get}; {@code count} false for a fill, which is neither a hit nor a miss. */
  private byte[] lookup(BlockKey key, Loader loader, boolean count) throws IOException {
    boolean[] loaded = {false};
    try {
      byte[] block =
          cache.get(
              key,
              () -> {
                loaded[0] = true;
                byte[] b = loader.load();
                if (b == null) {
                  throw new NullPointerException("loader returned null for " + key);
                }
                if ((long) b.length + ENTRY_OVERHEAD_BYTES > Math.min(capacity, Integer.MAX_VALUE)) {
                  throw new NotCached(b);
                }
                onInsert(key, b); // counted before Guava stores it: counts never go negative
                return b;
              });
      if (count) {
        (loaded[0] ? misses : hits).increment();
      }
      return block;
    } catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
      if (count && loaded[0]) {
        misses.increment();
      }
      Throwable cause = e.getCause();
      if (cause instanceof NotCached nc) {
        if (count && !loaded[0]) {
          hits.increment(); // waited for another thread's load of the same block
        }
        return nc.block;
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("block loader failed", cause);
    }
  }

  @Override
  public void evictFile(long fileNumber) {
    List<Long> offsets = new ArrayList<>();
    files.computeIfPresent(
        fileNumber,
        (f, r) -> {
          offsets.addAll(r.offsets.keySet());
          return r;
        });
    for (long offset : offsets) {
      cache.invalidate(new BlockKey(fileNumber, offset)); // listener uncounts synchronously
    }
  }

  /** Always null: a Guava cache records an access on every read, so compactions read from the file. */
  @Override
  public byte[] peek(long fileNumber, long offset) {
    return null;
  }

  @Override
  public boolean contains(long fileNumber, long offset) {
    return cache.asMap().containsKey(new BlockKey(fileNumber, offset));
  }

  @Override
  public long residentBlocks(long fileNumber) {
    Residency r = files.get(fileNumber);
    return r == null ? 0 : r.blocks;
  }

  @Override
  public long residentBytes(long fileNumber) {
    Residency r = files.get(fileNumber);
    return r == null ? 0 : r.bytes;
  }

  /** Sum of {@link #residentBlocks(long)} over several files (for example one level's). */
  public long residentBlocks(Collection<Long> fileNumbers) {
    long n = 0;
    for (long f : fileNumbers) {
      n += residentBlocks(f);
    }
    return n;
  }

  /** Sum of {@link #residentBytes(long)} over several files. */
  public long residentBytes(Collection<Long> fileNumbers) {
    long n = 0;
    for (long f : fileNumbers) {
      n += residentBytes(f);
    }
    return n;
  }

  @Override
  public long capacityBytes() {
    return capacity;
  }

  /** Σ (block length + {@link #ENTRY_OVERHEAD_BYTES}) over resident blocks. */
  @Override
  public long usedBytes() {
    return used.get();
  }

  /** Gets that returned a block without calling their own loader. */
  @Override
  public long hits() {
    return hits.sum();
  }

  /** Gets that called their loader. */
  @Override
  public long misses() {
    return misses.sum();
  }

  /** The cache's entries at this moment (weakly consistent under concurrency); for tests. */
  Map<BlockKey, byte[]> snapshot() {
    return ImmutableMap.copyOf(cache.asMap());
  }

  private void onInsert(BlockKey key, byte[] block) {
    used.addAndGet(block.length + ENTRY_OVERHEAD_BYTES);
    files.compute(
        key.fileNumber(),
        (f, r) -> {
          Residency res = r == null ? new Residency() : r;
          res.offsets.merge(key.offset(), 1, Integer::sum);
          res.blocks = res.blocks + 1;
          res.bytes = res.bytes + block.length;
          return res;
        });
  }

  private void onRemoval(RemovalNotification<BlockKey, byte[]> n) {
    BlockKey key = n.getKey();
    byte[] block = n.getValue();
    if (key == null || block == null) {
      return; // only for collected weak/soft references, which this cache does not use
    }
    used.addAndGet(-(block.length + ENTRY_OVERHEAD_BYTES));
    files.computeIfPresent(
        key.fileNumber(),
        (f, res) -> {
          res.offsets.computeIfPresent(key.offset(), (o, c) -> c == 1 ? null : c - 1);
          res.blocks = res.blocks - 1;
          res.bytes = res.bytes - block.length;
          return res.blocks == 0 ? null : res;
        });
  }
}
