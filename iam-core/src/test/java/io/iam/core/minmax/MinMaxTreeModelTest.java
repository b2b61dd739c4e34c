package io.iam.core.minmax;

import io.iam.core.cost.LsmCosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Model test: random streams of puts and deletes (random and nearly sorted keys); after every step
 * point and range reads over the buffer and the buckets equal a {@link TreeMap} (newest version
 * wins, deletes hide the key).
 */
class MinMaxTreeModelTest {

  @ParameterizedTest(name = "{0} B={1} W={2} domain={3}")
  @CsvSource({
      "random,4,2,300", "random,32,8,300", "random,64,4,100000",
      "nearly-sorted,16,4,0", "nearly-sorted,50,10,0", "dense,8,8,0", "dense,10,1,0"})
  void readsEqualATreeMapAfterEveryStep(String kind, int b, int w, int domain) {
    check(kind, b, w, domain, false);
  }

  @ParameterizedTest(name = "{0} B={1} W={2} domain={3}, with maintenance sorts")
  @CsvSource({"random,16,4,300", "random,8,2,5000", "nearly-sorted,16,4,0", "dense,8,3,0"})
  void readsStayEqualWithMaintenanceSorts(String kind, int b, int w, int domain) {
    check(kind, b, w, domain, true);
  }

  private static void check(String kind, int b, int w, int domain, boolean maintain) {
    for (long seed = 1; seed <= 4; seed++) {
      Random rnd = new Random(seed * 7919 + b);
      LongSupplier keys = "random".equals(kind) ? () -> rnd.nextInt(domain) : MinMaxBufferTest.stream(kind, rnd);
      MinMaxTree tree = new MinMaxTree(b, w);
      TreeMap<Long, Long> model = new TreeMap<>();
      List<Long> written = new ArrayList<>();
      for (int step = 1; step <= 2500; step++) {
        String at = kind + " seed=" + seed + " step=" + step;
        boolean delete = !written.isEmpty() && rnd.nextInt(5) == 0;
        long key = delete ? written.get(rnd.nextInt(written.size())) : keys.getAsLong();
        if (delete) {
          tree.delete(key);
          model.remove(key);
        } else {
          long value = rnd.nextLong();
          tree.put(key, value);
          model.put(key, value);
          written.add(key);
        }
        if (step == 2000) {
          tree.flush(); // the end of a stream: everything in buckets, then the stream goes on
        }
        if (maintain && step % 100 == 0) {
          tree.planSort(3).ifPresent(tree::sort);
        }
        assertEquals(Optional.ofNullable(model.get(key)), tree.get(key), at + " key " + key);
        for (int probe = 0; probe < 8; probe++) {
          long k = rnd.nextBoolean() ? written.get(rnd.nextInt(written.size())) : keys.getAsLong();
          assertEquals(Optional.ofNullable(model.get(k)), tree.get(k), at + " probe " + k);
        }
        long lo = written.get(rnd.nextInt(written.size()));
        long hi = lo + rnd.nextInt(rnd.nextBoolean() ? 50 : 5000);
        assertEquals(model.subMap(lo, true, hi, true), tree.range(lo, hi), at + " range [" + lo + ", " + hi + "]");
        if (step % 250 == 0) {
          assertEquals(model, tree.range(Long.MIN_VALUE, Long.MAX_VALUE), at + " full scan");
        }
      }
      String run = kind + " seed=" + seed;
      assertTrue(tree.buckets().size() > 10, run + ": too few buckets to test anything");
      assertEquals(tree.buckets().size(), tree.index().size(), run);
      if (maintain) {
        assertTrue(tree.costs(1).merges() > 0, run + ": no maintenance sort exercised");
      } else {
        assertEquals(0, tree.costs(1).merges(), run);
      }
    }
  }

  @Test
  void aSortMakesTheDeepestKeyLiveInOneBucketAndIsCountedAsOneMerge() {
    MinMaxTree tree = new MinMaxTree(4, 2);
    for (int i = 0; i < MinMaxPaperExampleTest.D.length; i++) {
      tree.put(MinMaxPaperExampleTest.D[i], i); // keys 1, 2, 4, 8, 9, 12, 18 come twice: the later value wins
    }
    tree.flush();
    // Fig. 2b's buckets plus the tail [5, 28]: at most 4 share a key, and key 2 is the leftmost
    // such key ([1, 3], [1, 7], [2, 4], [2, 6]).
    assertEquals(Optional.empty(), tree.planSort(4));
    List<Bucket> inputs = tree.planSort(3).orElseThrow();
    assertEquals(List.of(List.of(1L, 3L), List.of(1L, 7L), List.of(2L, 4L), List.of(2L, 6L)),
        inputs.stream().map(b -> List.of(b.min(), b.max())).toList());
    TreeMap<Long, Long> before = new TreeMap<>(tree.range(Long.MIN_VALUE, Long.MAX_VALUE));
    List<Bucket> sorted = tree.sort(inputs);
    assertEquals(List.of(List.of(1L, 2L), List.of(3L, 4L), List.of(6L, 7L)),
        sorted.stream().map(b -> List.of(b.min(), b.max())).toList());
    assertEquals(1, tree.index().stab(2L).size());
    assertEquals(before, tree.range(Long.MIN_VALUE, Long.MAX_VALUE));
    LsmCosts c = tree.costs(2);
    assertEquals(1, c.merges());
    assertEquals(8, c.readEntries());
    assertEquals(4, c.readIos());
    assertEquals(16 + 3, c.writeIos());
    assertEquals(Optional.of(24L), tree.get(2)); // D[24] = 2, the newer of its two versions
  }

  @Test
  void aKeyRewrittenAfterEvictionIsReadFromTheNewerPlaceAndTombstonesHideOlderBuckets() {
    MinMaxTree tree = new MinMaxTree(2, 1);
    tree.put(5, 50);
    assertEquals(1, tree.put(6, 60).size()); // evicts 5 (windows of 1: the smallest key)
    tree.delete(5); // in the buffer: hides bucket [5]
    assertEquals(Optional.empty(), tree.get(5));
    assertEquals(1, tree.put(1, 10).size()); // evicts 1; buffer: 5 (tombstone), 6
    tree.put(0, 0); // evicts 0
    tree.put(3, 30); // evicts 3
    tree.put(4, 40); // evicts 4; the cache still holds tombstone 5 and 6
    assertEquals(Optional.empty(), tree.get(5));
    tree.put(7, 70); // evicts the tombstone of 5: two buckets hold key 5 now
    assertEquals(2, tree.index().stab(5L).size());
    assertEquals(Optional.empty(), tree.get(5));
    tree.put(5, 55);
    assertEquals(Optional.of(55L), tree.get(5));
    assertEquals(List.of(0L, 1L, 3L, 4L, 5L, 6L, 7L), List.copyOf(tree.range(0, 9).keySet()));
  }
}
