package io.iam.core.minmax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link WindowCache} over byte keys with {@link ByteKeySpan}, and the early eviction. */
class WindowCacheTest {

  private static byte[] be(long k) {
    return ByteBuffer.allocate(8).putLong(k).array();
  }

  private static long span(byte[] a, byte[] b) {
    return ByteKeySpan.between(a, a.length, b, b.length);
  }

  @Test
  void theByteSpanOrdersLikeTheNumericDifference() {
    Random rnd = new Random(5);
    for (int i = 0; i < 20_000; i++) {
      long a = rnd.nextInt(1 << 20);
      long b = a + rnd.nextInt(1 << 16);
      long c = rnd.nextInt(1 << 20);
      long d = c + rnd.nextInt(1 << 16);
      int expected = Long.compare(b - a, d - c);
      assertEquals(expected, Integer.signum(Long.compareUnsigned(span(be(a), be(b)), span(be(c), be(d)))),
          "[" + a + ", " + b + "] vs [" + c + ", " + d + "]");
    }
    // strings of other lengths: widening never shrinks, equal keys span 0
    byte[] ab = "ab".getBytes();
    byte[] abc = "abc".getBytes();
    byte[] abd = "abd".getBytes();
    byte[] b = "b".getBytes();
    assertEquals(0L, span(abc, abc));
    assertTrue(Long.compareUnsigned(span(abc, abd), span(ab, abd)) <= 0);
    assertTrue(Long.compareUnsigned(span(ab, abd), span(ab, b)) < 0);
  }

  /** The paper's example through the generic cache over 8-byte keys: the buckets of Fig. 2b. */
  @Test
  void byteKeysGiveThePaperBuckets() {
    long[] keys = {9, 10, 3, 18, 1, 13, 20, 24, 12, 4, 2, 7, 19, 30, 26, 14, 1, 29, 8, 4, 15, 25, 18, 9, 2, 8, 11, 6,
        16, 5, 12, 28};
    WindowCache<byte[], Integer> cache = new WindowCache<>(4, 2, Arrays::compareUnsigned, WindowCacheTest::span, (x, y) -> y);
    List<List<Long>> buckets = new ArrayList<>();
    for (int i = 0; i < keys.length; i++) {
      List<Map.Entry<byte[], Integer>> out = cache.add(be(keys[i]), i);
      if (!out.isEmpty()) {
        buckets.add(out.stream().map(e -> ByteBuffer.wrap(e.getKey()).getLong()).toList());
      }
    }
    assertEquals(List.of(List.of(9L, 10L), List.of(1L, 3L), List.of(18L, 20L), List.of(12L, 13L), List.of(2L, 4L),
        List.of(19L, 24L), List.of(26L, 30L), List.of(1L, 7L), List.of(4L, 8L), List.of(14L, 15L), List.of(25L, 29L),
        List.of(8L, 9L), List.of(2L, 6L), List.of(16L, 18L), List.of(11L, 12L)), buckets);
  }

  @Test
  void evictContainingTakesTheMostCompactWindowHoldingTheKey() {
    WindowCache<Long, Long> cache = new WindowCache<>(100, 3, Long::compare, (lo, hi) -> hi - lo, (x, y) -> y);
    for (long k : new long[] {1, 2, 3, 50, 52, 53, 1000}) {
      cache.add(k, k);
    }
    // windows holding 50: [2, 50] 48, [3, 52] 49, [50, 53] 3 → the last
    assertEquals(List.of(50L, 52L, 53L), cache.evictContaining(50L).stream().map(Map.Entry::getKey).toList());
    // the outlier 1000 lies only in [2, 1000] now (cache 1 2 3 1000): evicted with its neighbours
    assertEquals(List.of(2L, 3L, 1000L), cache.evictContaining(1000L).stream().map(Map.Entry::getKey).toList());
    assertEquals(List.of(), cache.evictContaining(77L));
    // fewer than W keys left: all of them go
    assertEquals(List.of(1L), cache.evictContaining(1L).stream().map(Map.Entry::getKey).toList());
    assertEquals(0, cache.size());
    assertEquals(java.util.Optional.empty(), cache.bestWindow());
  }
}
