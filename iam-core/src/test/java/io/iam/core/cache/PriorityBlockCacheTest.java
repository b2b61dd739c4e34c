package io.iam.core.cache;

import static io.iam.core.cache.LruBlockCache.ENTRY_OVERHEAD_BYTES;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PriorityBlockCacheTest {

  private static final int LEN = 100;
  private static final long W = LEN + ENTRY_OVERHEAD_BYTES;

  /** A block whose contents name it. */
  private static byte[] block(long file, long offset, int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (file * 1_000_003L + offset + i * 31L);
    }
    return b;
  }

  private static byte[] get(PriorityBlockCache c, long file, long offset) throws IOException {
    return c.get(file, offset, () -> block(file, offset, LEN));
  }

  /** Reads blocks {@code from} to {@code from + count - 1} of a file (each of {@link #LEN} bytes). */
  private static void readBlocks(PriorityBlockCache c, long file, long from, long count) throws IOException {
    for (long o = from; o < from + count; o++) {
      get(c, file, o * LEN);
    }
  }

  /** Gets the block and says whether it was a hit (its loader not called). */
  private static boolean hit(PriorityBlockCache c, long file, long offset) throws IOException {
    AtomicInteger loads = new AtomicInteger();
    c.get(file, offset, () -> {
      loads.incrementAndGet();
      return block(file, offset, LEN);
    });
    return loads.get() == 0;
  }

  @Test
  void protectedBlocksSurviveAFloodOfUnprotectedReads() throws IOException {
    PriorityBlockCache c = new PriorityBlockCache(100 * W, 50 * W);
    c.protect(Map.of(1L, 0L));
    readBlocks(c, 1, 0, 30);
    for (long f = 2; f < 200; f++) { // 19,800 unprotected blocks, 200 times what fits beside them
      readBlocks(c, f, 0, 100);
    }
    c.checkInvariants();
    assertEquals(30 * W, c.protectedUsedBytes());
    assertEquals(30, c.residentBlocks(1));
    for (long o = 0; o < 30; o++) {
      assertTrue(hit(c, 1, o * LEN), "protected block " + o + " survived");
    }
    assertEquals(30, c.protectedHits());
    assertEquals(30, c.protectedMisses());
    assertEquals(100 * W, c.usedBytes(), "unprotected blocks use the rest of the cache");
    assertEquals(0, c.demotions());
  }

  @Test
  void protectionIsBoundedBySAndOverflowIsDemoted() throws IOException {
    PriorityBlockCache c = new PriorityBlockCache(100 * W, 20 * W);
    c.protect(Map.of(1L, 0L));
    readBlocks(c, 1, 0, 30);
    c.checkInvariants();
    assertEquals(20 * W, c.protectedUsedBytes());
    assertEquals(30, c.residentBlocks(1), "the 10 oldest were demoted, not dropped");
    assertEquals(10, c.demotions());
    assertEquals(10, c.overflows(), "each for want of room");
    for (long f = 2; f < 10; f++) {
      readBlocks(c, f, 0, 100);
    }
    c.checkInvariants();
    for (long o = 0; o < 10; o++) {
      assertFalse(c.contains(1, o * LEN), "demoted block " + o + " is evicted like any other");
    }
    for (long o = 10; o < 30; o++) {
      assertTrue(c.contains(1, o * LEN), "the 20 newest stay protected: " + o);
    }
  }

  @Test
  void onlyBlocksFromTheProtectedOffsetOnAreProtected() throws IOException {
    PriorityBlockCache c = new PriorityBlockCache(100 * W, 100 * W);
    c.protect(Map.of(1L, 5L * LEN)); // the older sequence ends where offset 5 begins
    readBlocks(c, 1, 0, 10);
    assertFalse(c.isProtected(1, 4L * LEN));
    assertTrue(c.isProtected(1, 5L * LEN));
    assertFalse(c.isProtected(2, 5L * LEN));
    assertEquals(5 * W, c.protectedUsedBytes());
    assertEquals(10 * W, c.usedBytes());
  }

  @Test
  void blocksLosingProtectionAreDemotedAndGainingItArePromoted() throws IOException {
    PriorityBlockCache c = new PriorityBlockCache(50 * W, 25 * W);
    c.protect(Map.of(1L, 0L));
    for (long o = 0; o < 20; o++) {
      get(c, 1, o * LEN);
      get(c, 2, o * LEN); // normal
    }
    assertEquals(20 * W, c.protectedUsedBytes());
    c.protect(Map.of(2L, 0L)); // file 1 moved below m, file 2 became an appending level's
    c.checkInvariants();
    assertEquals(20 * W, c.protectedUsedBytes());
    assertEquals(20, c.demotions());
    assertEquals(0, c.overflows(), "they lost their protection; the pool had room");
    assertEquals(20, c.residentBlocks(1), "demoted, still resident");
    for (long f = 3; f < 10; f++) {
      readBlocks(c, f, 0, 50);
    }
    c.checkInvariants();
    assertEquals(0, c.residentBlocks(1), "once normal, file 1's blocks are evicted by reads");
    assertEquals(20, c.residentBlocks(2), "file 2's promoted blocks survive them");
    c.protect(Map.of());
    assertEquals(0, c.protectedUsedBytes());
    c.checkInvariants();
  }

  @Test
  void promotionBeyondSDemotesTheLeastRecentlyUsed() throws IOException {
    PriorityBlockCache c = new PriorityBlockCache(100 * W, 10 * W);
    readBlocks(c, 1, 0, 20);
    c.protect(Map.of(1L, 0L));
    c.checkInvariants();
    assertEquals(10 * W, c.protectedUsedBytes());
    assertEquals(20, c.residentBlocks(1));
  }

  @Test
  void anUnprotectedBlockNeverEvictsAProtectedOne() throws IOException {
    PriorityBlockCache c = new PriorityBlockCache(10 * W, 10 * W);
    c.protect(Map.of(1L, 0L));
    readBlocks(c, 1, 0, 10);
    assertArrayEquals(block(2, 0, LEN), get(c, 2, 0), "returned");
    assertFalse(c.contains(2, 0), "but not kept: the protected pool holds the whole cache");
    assertEquals(10, c.residentBlocks(1));
    assertEquals(10 * W, c.usedBytes());
    c.checkInvariants();
  }

  @Test
  void evictFileDropsBothPoolsAndZeroCapacityKeepsNothing() throws IOException {
    PriorityBlockCache c = new PriorityBlockCache(100 * W, 50 * W);
    c.protect(Map.of(1L, 5L * LEN));
    readBlocks(c, 1, 0, 10);
    c.evictFile(1);
    assertEquals(0, c.usedBytes());
    assertEquals(0, c.residentBlocks(1));
    assertEquals(0, c.residentBytes(1));
    c.checkInvariants();
    PriorityBlockCache none = new PriorityBlockCache(0, 0);
    none.protect(Map.of(1L, 0L));
    assertArrayEquals(block(1, 0, LEN), get(none, 1, 0));
    assertEquals(0, none.usedBytes());
    assertThrows(IllegalArgumentException.class, () -> new PriorityBlockCache(10, 11));
    assertThrows(IllegalArgumentException.class, () -> new PriorityBlockCache(-1, 0));
  }

  @Test
  void loaderFailuresLeaveNothingBehind() {
    PriorityBlockCache c = new PriorityBlockCache(100 * W, 50 * W);
    assertThrows(IOException.class, () -> c.get(1, 0, () -> {
      throw new IOException("disk");
    }));
    assertThrows(NullPointerException.class, () -> c.get(1, 0, () -> null));
    assertEquals(0, c.usedBytes());
  }

  /**
   * A plain model of the two pools (two access-ordered maps), driven by the same seeded random
   * operations, must hold exactly the same blocks in the same pools.
   */
  @Test
  void matchesASimpleModel() throws IOException {
    for (long seed = 1; seed <= 20; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      long capacity = (20 + rnd.nextInt(60)) * W;
      long s = rnd.nextLong(capacity + 1);
      PriorityBlockCache c = new PriorityBlockCache(capacity, s);
      Model m = new Model(capacity, s);
      for (int i = 0; i < 5_000; i++) {
        int op = rnd.nextInt(100);
        if (op < 3) {
          Map<Long, Long> p = new HashMap<>();
          for (long f = 0; f < 8; f++) {
            if (rnd.nextBoolean()) {
              p.put(f, (long) rnd.nextInt(10) * LEN);
            }
          }
          c.protect(p);
          m.protect(p);
        } else if (op < 5) {
          long f = rnd.nextInt(8);
          c.evictFile(f);
          m.evictFile(f);
        } else {
          long f = rnd.nextInt(8);
          long o = (long) rnd.nextInt(20) * LEN;
          int len = rnd.nextInt(4) == 0 ? 10 + rnd.nextInt(400) : LEN;
          boolean wasHit = m.get(f, o, len);
          AtomicInteger loads = new AtomicInteger();
          byte[] b = c.get(f, o, () -> {
            loads.incrementAndGet();
            return block(f, o, len);
          });
          assertEquals(wasHit, loads.get() == 0, "seed " + seed + " op " + i + ": hit of " + f + "/" + o);
          assertEquals(wasHit ? m.lengthOf(f, o) : len, b.length);
        }
        if (i % 97 == 0) {
          c.checkInvariants();
          assertEquals(m.protectedKeys(), keys(c.protectedKeys()), "seed " + seed + " op " + i);
          assertEquals(m.used(), c.usedBytes(), "seed " + seed + " op " + i);
          assertEquals(m.overflows, c.overflows(), "seed " + seed + " op " + i);
        }
      }
    }
  }

  private static List<String> keys(List<long[]> ks) {
    List<String> out = new ArrayList<>();
    for (long[] k : ks) {
      out.add(k[0] + "/" + k[1]);
    }
    return out;
  }

  /** The reference: two insertion-ordered maps re-inserted on use; the protection a TreeMap. */
  private static final class Model {
    final long capacity;
    final long s;
    final LinkedHashMap<String, Integer> prot = new LinkedHashMap<>();
    final LinkedHashMap<String, Integer> normal = new LinkedHashMap<>();
    TreeMap<Long, Long> from = new TreeMap<>();
    long overflows;

    Model(long capacity, long s) {
      this.capacity = capacity;
      this.s = s;
    }

    static String key(long f, long o) {
      return f + "/" + o;
    }

    static long w(int len) {
      return len + ENTRY_OVERHEAD_BYTES;
    }

    static long sum(Map<String, Integer> m) {
      return m.values().stream().mapToLong(Model::w).sum();
    }

    long used() {
      return sum(prot) + sum(normal);
    }

    boolean isProtected(long f, long o) {
      Long x = from.get(f);
      return x != null && o >= x;
    }

    int lengthOf(long f, long o) {
      Integer l = prot.get(key(f, o));
      return l != null ? l : normal.get(key(f, o));
    }

    boolean get(long f, long o, int len) {
      String k = key(f, o);
      for (LinkedHashMap<String, Integer> pool : List.of(prot, normal)) {
        Integer l = pool.remove(k);
        if (l != null) {
          pool.put(k, l);
          return true;
        }
      }
      if (isProtected(f, o) && w(len) <= s) {
        prot.put(k, len);
        shrink();
        evictNormal(0);
      } else if (w(len) <= capacity - sum(prot)) {
        evictNormal(w(len));
        normal.put(k, len);
      }
      return false;
    }

    void shrink() {
      while (sum(prot) > s) {
        overflows++;
        Map.Entry<String, Integer> e = prot.entrySet().iterator().next();
        prot.remove(e.getKey());
        normal.put(e.getKey(), e.getValue());
      }
    }

    void evictNormal(long room) {
      Iterator<String> it = normal.keySet().iterator();
      while (used() + room > capacity) {
        it.next();
        it.remove();
      }
    }

    void protect(Map<Long, Long> p) {
      TreeMap<Long, Long> old = from;
      from = new TreeMap<>(p);
      java.util.TreeSet<Long> changed = new java.util.TreeSet<>();
      old.forEach((f, x) -> {
        if (!x.equals(from.get(f))) {
          changed.add(f);
        }
      });
      from.keySet().stream().filter(f -> !old.containsKey(f)).forEach(changed::add);
      for (long f : changed) {
        List<String> ks = new ArrayList<>();
        for (LinkedHashMap<String, Integer> pool : List.of(prot, normal)) {
          pool.keySet().stream().filter(k -> k.startsWith(f + "/")).forEach(ks::add);
        }
        ks.sort((a, b) -> Long.compare(Long.parseLong(a.split("/")[1]), Long.parseLong(b.split("/")[1])));
        for (String k : ks) {
          long o = Long.parseLong(k.split("/")[1]);
          boolean wasProt = prot.containsKey(k);
          int len = wasProt ? prot.get(k) : normal.get(k);
          boolean p2 = isProtected(f, o) && w(len) <= s;
          if (p2 != wasProt) {
            (wasProt ? prot : normal).remove(k);
            (p2 ? prot : normal).put(k, len);
          }
        }
      }
      shrink();
    }

    void evictFile(long f) {
      prot.keySet().removeIf(k -> k.startsWith(f + "/"));
      normal.keySet().removeIf(k -> k.startsWith(f + "/"));
    }

    List<String> protectedKeys() {
      return new ArrayList<>(prot.keySet());
    }
  }

  /** Four threads read, evict and change protection at once; every block returned is the right one. */
  @Test
  void concurrentSmokeKeepsInvariants() throws Exception {
    PriorityBlockCache c = new PriorityBlockCache(200 * W, 80 * W);
    int threads = 4;
    CyclicBarrier start = new CyclicBarrier(threads);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long seed = t;
      Thread w = new Thread(() -> {
        SplittableRandom rnd = new SplittableRandom(seed);
        try {
          start.await();
          for (int i = 0; i < 30_000; i++) {
            long f = rnd.nextInt(12);
            int op = rnd.nextInt(1000);
            if (op < 5) {
              c.evictFile(f);
            } else if (op < 10) {
              c.protect(Map.of(f, (long) rnd.nextInt(10) * LEN, (f + 1) % 12, 0L));
            } else {
              long o = (long) rnd.nextInt(40) * LEN;
              byte[] b = get(c, f, o);
              assertArrayEquals(block(f, o, LEN), b, "block " + f + "/" + o);
            }
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
    assertTrue(failures.isEmpty(), () -> "failures: " + failures);
    c.checkInvariants();
    assertTrue(c.hits() > 0 && c.protectedHits() > 0);
  }

  /** A block put in as it is written is counted neither as a hit nor as a miss, and is protected as a read one would be. */
  @Test
  void aFilledBlockIsNeitherAHitNorAMissAndTakesItsPool() throws IOException {
    PriorityBlockCache c = new PriorityBlockCache(100 * W, 50 * W);
    c.protect(Map.of(1L, 0L));
    for (long o = 0; o < 10; o++) {
      c.fill(1, o * LEN, block(1, o * LEN, LEN));
    }
    assertEquals(0, c.hits());
    assertEquals(0, c.misses());
    assertEquals(10, c.residentBlocks(1));
    for (long o = 0; o < 500; o++) { // a flood of reads of another file
      get(c, 2, o * LEN);
    }
    for (long o = 0; o < 10; o++) {
      assertTrue(hit(c, 1, o * LEN), "filled protected block " + o + " survived the flood");
    }
    byte[] other = new byte[LEN];
    c.fill(1, 0, other);
    assertArrayEquals(block(1, 0, LEN), get(c, 1, 0), "a fill leaves a resident block as it is");
  }

  /**
   * A block filled as protected keeps its room while the map does not name its file yet (the
   * IAM-tree fills an appended sequence before the edit that protects it is installed), follows
   * the map once it names the file, and an evicted file is forgotten. A plain fill is dropped when
   * protected blocks fill the cache: the engine lost first appended sequences that way.
   */
  @Test
  void aProtectedFillKeepsItsRoomUntilTheMapNamesItsFile() throws IOException {
    PriorityBlockCache c = new PriorityBlockCache(100 * W, 100 * W);
    c.protect(Map.of(1L, 0L));
    readBlocks(c, 1, 0, 100);
    c.fill(2, 0, block(2, 0, LEN));
    assertEquals(0, c.residentBlocks(2), "a plain fill finds no room beside a full protected pool");
    c.fillProtected(3, 0, block(3, 0, LEN));
    assertEquals(1, c.residentBlocks(3), "a protected fill takes the least recently used protected room");
    c.checkInvariants();

    c.protect(Map.of(1L, 0L)); // a map computed before the file's sequence was installed
    readBlocks(c, 4, 0, 500);
    assertTrue(hit(c, 3, 0), "still protected while no map names file 3");
    c.protect(Map.of(1L, 0L, 8L, 0L));
    c.fillProtected(8, 0, block(8, 0, LEN));
    c.protect(Map.of(1L, 0L)); // a map that drops file 8, from before its new sequence
    readBlocks(c, 4, 500, 500);
    assertTrue(hit(c, 8, 0), "a pending fill is not demoted by a map that does not name its file");

    c.protect(Map.of(1L, 0L, 3L, 1000L)); // named: its block at offset 0 is before the protected part
    readBlocks(c, 5, 0, 500);
    assertEquals(0, c.residentBlocks(3), "once named, the map decides: demoted, then evicted by reads");
    c.checkInvariants();

    c.fillProtected(6, 0, block(6, 0, LEN));
    c.evictFile(6);
    get(c, 6, 0); // read back in: no map names file 6, and the eviction forgot the fill
    readBlocks(c, 7, 0, 500);
    assertEquals(0, c.residentBlocks(6), "an evicted file is no longer held protected");
    c.checkInvariants();
  }
}
