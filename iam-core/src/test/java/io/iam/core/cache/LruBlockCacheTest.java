package io.iam.core.cache;

import static io.iam.core.cache.LruBlockCache.ENTRY_OVERHEAD_BYTES;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.iam.core.cache.LruBlockCache.BlockKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LruBlockCacheTest {

  /** A block whose contents identify it, of the given length. */
  private static byte[] block(long file, long offset, int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = byteAt(file, offset, i);
    }
    return b;
  }

  private static byte byteAt(long file, long offset, int i) {
    return (byte) (file * 1_000_003L + offset + i * 31L);
  }

  /** Whether {@code b} looks like {@code block(file, offset, length)} (checks both ends). */
  private static boolean isBlock(byte[] b, long file, long offset, int length) {
    return b.length == length
        && (length == 0 || (b[0] == byteAt(file, offset, 0) && b[length - 1] == byteAt(file, offset, length - 1)));
  }

  private static int weight(int length) {
    return length + ENTRY_OVERHEAD_BYTES;
  }

  /** Loader that counts its calls. */
  private static BlockCache.Loader counting(AtomicInteger calls, byte[] b) {
    return () -> {
      calls.incrementAndGet();
      return b;
    };
  }

  /** Checks every counter of the cache against a recount over its entries. */
  private static void assertMatchesRecount(LruBlockCache cache, int files) {
    Map<BlockKey, byte[]> entries = cache.snapshot();
    Map<Long, Long> blocks = new HashMap<>();
    Map<Long, Long> bytes = new HashMap<>();
    long used = 0;
    for (Map.Entry<BlockKey, byte[]> e : entries.entrySet()) {
      long f = e.getKey().fileNumber();
      blocks.merge(f, 1L, Long::sum);
      bytes.merge(f, (long) e.getValue().length, Long::sum);
      used += weight(e.getValue().length);
      assertTrue(isBlock(e.getValue(), f, e.getKey().offset(), e.getValue().length), "content of " + e.getKey());
    }
    for (long f = 0; f < files; f++) {
      assertEquals(blocks.getOrDefault(f, 0L), cache.residentBlocks(f), "blocks of file " + f);
      assertEquals(bytes.getOrDefault(f, 0L), cache.residentBytes(f), "bytes of file " + f);
    }
    assertEquals(used, cache.usedBytes(), "used bytes");
    assertTrue(cache.usedBytes() <= cache.capacityBytes(), "over capacity: " + cache.usedBytes());
  }

  @Test
  void hitAfterMissReturnsTheSameBlockWithoutLoading() throws IOException {
    LruBlockCache cache = new LruBlockCache(10_000);
    AtomicInteger calls = new AtomicInteger();
    byte[] b = block(7, 4096, 100);
    assertSame(b, cache.get(7, 4096, counting(calls, b)));
    assertSame(b, cache.get(7, 4096, () -> fail("must not load a resident block")));
    assertEquals(1, calls.get());
    assertEquals(1, cache.misses());
    assertEquals(1, cache.hits());
    assertEquals(1, cache.residentBlocks(7));
    assertEquals(100, cache.residentBytes(7));
    assertEquals(weight(100), cache.usedBytes());
    assertEquals(10_000, cache.capacityBytes());
    assertEquals(0, cache.residentBlocks(8));
  }

  @Test
  void capacityIsNeverExceeded() throws IOException {
    long capacity = 20_000;
    LruBlockCache cache = new LruBlockCache(capacity);
    Random rnd = new Random(1);
    long maxSeen = 0;
    for (int i = 0; i < 20_000; i++) {
      long f = rnd.nextInt(5);
      long off = rnd.nextInt(200) * 8192L;
      int len = 1 + (int) ((f * 7919 + off / 8192 * 104729) % 3000); // fixed per block
      byte[] got = cache.get(f, off, () -> block(f, off, len));
      assertEquals(len, got.length);
      assertTrue(cache.usedBytes() <= capacity, "used " + cache.usedBytes() + " after op " + i);
      maxSeen = Math.max(maxSeen, cache.usedBytes());
    }
    assertTrue(maxSeen > capacity - weight(3000), "the cache fills up: " + maxSeen);
    assertMatchesRecount(cache, 5);
  }

  @Test
  void residencyMatchesARecountUnderRandomGetsAndEvictions() throws IOException {
    int files = 50;
    LruBlockCache cache = new LruBlockCache(64 * 1024);
    Random rnd = new Random(42);
    int evictions = 0;
    for (int i = 0; i < 100_000; i++) {
      long f = rnd.nextInt(files);
      if (rnd.nextInt(100) < 3) {
        cache.evictFile(f);
        evictions++;
        assertEquals(0, cache.residentBlocks(f));
        assertEquals(0, cache.residentBytes(f));
      } else {
        long off = rnd.nextInt(40) * 4096L;
        int len = 100 + (int) ((f * 31 + off / 4096 * 17) % 3900);
        assertEquals(len, cache.get(f, off, () -> block(f, off, len)).length);
      }
      assertMatchesRecount(cache, files);
    }
    assertTrue(evictions > 1000);
    assertTrue(cache.hits() > 0 && cache.misses() > 0);
    assertEquals(100_000 - evictions, cache.hits() + cache.misses());
  }

  @Test
  void leastRecentlyUsedBlocksLeaveFirst() throws IOException {
    int n = 10;
    int len = 1000;
    LruBlockCache cache = new LruBlockCache((long) n * weight(len)); // exactly n blocks
    AtomicInteger loads = new AtomicInteger();
    for (int i = 0; i < n; i++) {
      cache.get(1, i, counting(loads, new byte[len]));
    }
    assertEquals(n, cache.residentBlocks(1));
    assertEquals(cache.capacityBytes(), cache.usedBytes());
    cache.get(1, 0, () -> fail("block 0 is resident")); // block 0 becomes the most recent
    cache.get(1, n, counting(loads, new byte[len])); // evicts the least recent: block 1
    assertEquals(n, cache.residentBlocks(1));
    assertTrue(cache.snapshot().containsKey(new BlockKey(1, 0)));
    assertTrue(!cache.snapshot().containsKey(new BlockKey(1, 1)));
    for (int i = 2; i <= n; i++) {
      assertTrue(cache.snapshot().containsKey(new BlockKey(1, i)), "block " + i);
    }
  }

  @Test
  void aCyclicScanLargerThanTheCacheAlwaysMissesAndOneThatFitsAlwaysHits() throws IOException {
    int n = 8;
    int len = 500;
    LruBlockCache cache = new LruBlockCache((long) n * weight(len));
    // n blocks fit: after the first pass every access hits.
    for (int pass = 0; pass < 5; pass++) {
      for (int i = 0; i < n; i++) {
        cache.get(2, i, () -> new byte[len]);
      }
    }
    assertEquals(n, cache.misses());
    assertEquals(4L * n, cache.hits());
    cache.evictFile(2);
    assertEquals(0, cache.usedBytes());
    // n + 1 blocks in a cycle: exact LRU evicts each block just before it is needed again.
    long missesBefore = cache.misses();
    for (int pass = 0; pass < 5; pass++) {
      for (int i = 0; i <= n; i++) {
        cache.get(3, i, () -> new byte[len]);
      }
    }
    assertEquals(5L * (n + 1), cache.misses() - missesBefore);
    assertEquals(4L * n, cache.hits());
  }

  @Test
  void evictFileDropsOnlyThatFile() throws IOException {
    LruBlockCache cache = new LruBlockCache(1 << 20);
    for (int i = 0; i < 10; i++) {
      long off = i * 100L;
      cache.get(1, off, () -> block(1, off, 100));
      cache.get(2, off, () -> block(2, off, 200));
    }
    assertEquals(10, cache.residentBlocks(1));
    assertEquals(2000, cache.residentBytes(2));
    assertEquals(20, cache.residentBlocks(List.of(1L, 2L, 3L)));
    assertEquals(3000, cache.residentBytes(List.of(1L, 2L)));
    cache.evictFile(1);
    assertEquals(0, cache.residentBlocks(1));
    assertEquals(0, cache.residentBytes(1));
    assertEquals(10, cache.residentBlocks(2));
    assertEquals(10L * weight(200), cache.usedBytes());
    cache.evictFile(99); // unknown file: nothing happens
    AtomicInteger loads = new AtomicInteger();
    cache.get(1, 0, counting(loads, block(1, 0, 100)));
    assertEquals(1, loads.get(), "an evicted block is loaded again");
    assertMatchesRecount(cache, 3);
  }

  @Test
  void aBlockLargerThanTheCacheIsReturnedButNotKept() throws IOException {
    LruBlockCache cache = new LruBlockCache(1000);
    cache.get(1, 0, () -> new byte[100]);
    byte[] big = new byte[1000 - ENTRY_OVERHEAD_BYTES + 1];
    assertSame(big, cache.get(1, 8, () -> big));
    assertEquals(1, cache.residentBlocks(1), "the small block stays");
    assertEquals(weight(100), cache.usedBytes());
    AtomicInteger loads = new AtomicInteger();
    cache.get(1, 8, counting(loads, big));
    assertEquals(1, loads.get());
    byte[] fits = new byte[1000 - ENTRY_OVERHEAD_BYTES];
    assertSame(fits, cache.get(1, 16, () -> fits)); // exactly the capacity: kept, evicts the rest
    assertEquals(1, cache.residentBlocks(1));
    assertEquals(1000, cache.usedBytes());
  }

  @Test
  void zeroCapacityKeepsNothing() throws IOException {
    LruBlockCache cache = new LruBlockCache(0);
    AtomicInteger loads = new AtomicInteger();
    byte[] b = new byte[0];
    for (int i = 0; i < 3; i++) {
      assertSame(b, cache.get(1, 0, counting(loads, b)));
    }
    assertEquals(3, loads.get());
    assertEquals(3, cache.misses());
    assertEquals(0, cache.hits());
    assertEquals(0, cache.usedBytes());
    assertEquals(0, cache.residentBlocks(1));
    assertThrows(IllegalArgumentException.class, () -> new LruBlockCache(-1));
  }

  @Test
  void loaderExceptionsPropagateUnchangedAndNothingIsCached() throws IOException {
    LruBlockCache cache = new LruBlockCache(1 << 20);
    IOException io = new IOException("bad checksum");
    IOException thrown = assertThrows(IOException.class, () -> cache.get(1, 0, () -> {
      throw io;
    }));
    assertSame(io, thrown);
    UncheckedIOException unchecked = new UncheckedIOException(io);
    assertSame(unchecked, assertThrows(UncheckedIOException.class, () -> cache.get(1, 0, () -> {
      throw unchecked;
    })));
    assertThrows(NullPointerException.class, () -> cache.get(1, 0, () -> null));
    assertEquals(0, cache.residentBlocks(1));
    assertEquals(0, cache.usedBytes());
    assertTrue(cache.snapshot().isEmpty());
    AtomicInteger loads = new AtomicInteger();
    cache.get(1, 0, counting(loads, new byte[10]));
    assertEquals(1, loads.get(), "a failed load leaves nothing behind");
    assertEquals(4, cache.misses());
  }

  @Test
  void concurrentGetsOfOneMissingBlockLoadItOnce() throws Exception {
    LruBlockCache cache = new LruBlockCache(1 << 20);
    int threads = 4;
    AtomicInteger loads = new AtomicInteger();
    CountDownLatch loading = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    byte[] b = block(5, 0, 256);
    BlockCache.Loader slow = () -> {
      loads.incrementAndGet();
      loading.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return b.clone();
    };
    ConcurrentLinkedQueue<Object> results = new ConcurrentLinkedQueue<>();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread w = new Thread(() -> {
        try {
          results.add(cache.get(5, 0, slow));
        } catch (Throwable e) {
          results.add(e);
        }
      });
      workers.add(w);
      w.start();
    }
    assertTrue(loading.await(30, TimeUnit.SECONDS));
    // Give the other threads the chance to block on the load in flight (the assertions hold
    // either way: a late thread finds the block cached).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline && workers.stream().filter(w -> w.getState() == Thread.State.WAITING).count() < threads) {
      Thread.onSpinWait();
    }
    release.countDown();
    for (Thread w : workers) {
      w.join(TimeUnit.SECONDS.toMillis(30));
    }
    assertEquals(1, loads.get());
    assertEquals(threads, results.size());
    Object first = results.peek();
    assertTrue(first instanceof byte[], String.valueOf(first));
    for (Object r : results) {
      assertSame(first, r, "every thread gets the one loaded block");
    }
    assertArrayEquals(b, (byte[]) first);
    assertEquals(1, cache.misses());
    assertEquals(threads - 1, cache.hits());
    assertEquals(1, cache.residentBlocks(5));
  }

  @Test
  void concurrentStressKeepsCountsConsistent() throws Exception {
    int files = 20;
    int threads = 4;
    LruBlockCache cache = new LruBlockCache(128 * 1024);
    CyclicBarrier start = new CyclicBarrier(threads);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    AtomicInteger ops = new AtomicInteger();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long seed = t;
      Thread w = new Thread(() -> {
        Random rnd = new Random(seed);
        try {
          start.await();
          for (int i = 0; i < 50_000; i++) {
            long f = rnd.nextInt(files);
            if (rnd.nextInt(100) == 0) {
              cache.evictFile(f);
            } else {
              long off = rnd.nextInt(64) * 4096L;
              int len = 50 + (int) ((f * 131 + off / 4096 * 7) % 4000);
              byte[] got = cache.get(f, off, () -> block(f, off, len));
              if (!isBlock(got, f, off, len)) {
                throw new AssertionError("wrong block for " + f + "@" + off);
              }
            }
            ops.incrementAndGet();
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    assertTrue(failures.isEmpty(), () -> failures.peek().toString());
    assertEquals(threads * 50_000, ops.get());
    assertMatchesRecount(cache, files);
    assertTrue(cache.usedBytes() > 0);
    for (long f = 0; f < files; f++) {
      cache.evictFile(f);
    }
    assertMatchesRecount(cache, files);
    assertEquals(0, cache.usedBytes());
  }

  @Test
  void aFilledBlockIsNeitherAHitNorAMissAndIsCounted() throws IOException {
    LruBlockCache cache = new LruBlockCache(10_000);
    cache.fill(7, 0, block(7, 0, 100));
    cache.fill(7, 100, block(7, 100, 100));
    cache.fill(7, 0, block(8, 0, 100)); // resident already: left as it is
    assertEquals(0, cache.hits());
    assertEquals(0, cache.misses());
    assertEquals(2, cache.residentBlocks(7));
    AtomicInteger calls = new AtomicInteger();
    assertTrue(isBlock(cache.get(7, 0, counting(calls, block(9, 9, 100))), 7, 0, 100));
    assertEquals(0, calls.get(), "the filled block was read from the cache");
    assertEquals(1, cache.hits());
    assertMatchesRecount(cache, 10);
    cache.fill(7, 200, new byte[20_000]); // larger than the cache: not kept
    assertEquals(2, cache.residentBlocks(7));
  }
}
