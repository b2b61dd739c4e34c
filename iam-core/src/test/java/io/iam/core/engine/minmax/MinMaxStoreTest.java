package io.iam.core.engine.minmax;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.engine.IamStore;
import io.iam.core.engine.ReadOptions;
import io.iam.core.engine.Snapshot;
import io.iam.core.engine.StoreInternals;
import io.iam.core.engine.StoreIterator;
import io.iam.core.engine.TestStores;
import io.iam.core.engine.StoreOptions;
import io.iam.core.engine.TreeKind;
import io.iam.core.option.OptionValues;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tree=minmax in the engine: the paper's worked example read back from the store's own bucket
 * files and manifest, reads across the cache and the buckets, the log kept while the cache holds
 * its writes, and the maintenance sort.
 */
class MinMaxStoreTest {

  /** Fig. 1: the 32 keys in arrival order. */
  static final long[] PAPER_KEYS = {9, 10, 3, 18, 1, 13, 20, 24, 12, 4, 2, 7, 19, 30, 26, 14, 1, 29, 8, 4, 15, 25, 18, 9,
      2, 8, 11, 6, 16, 5, 12, 28};

  /** Fig. 2b, last column: the 15 buckets Min-Max writes with B = 4 and W = 2, in order. */
  static final long[][] PAPER_BUCKETS = {{9, 10}, {1, 3}, {18, 20}, {12, 13}, {2, 4}, {19, 24}, {26, 30}, {1, 7}, {4, 8},
      {14, 15}, {25, 29}, {8, 9}, {2, 6}, {16, 18}, {11, 12}};

  static byte[] key(long k) {
    return ByteBuffer.allocate(8).putLong(k).array();
  }

  /** The write cache and buckets of {@code store}, a tree=minmax store. */
  static MinMaxEngine engine(IamStore store) {
    return ((MinMaxStoreTree) StoreInternals.tree(store)).engine();
  }

  static OptionValues options(Map<String, String> extra) {
    Map<String, String> m = new HashMap<>(Map.of("tree", "minmax", "minmax-cache", "4", "minmax-window", "2"));
    m.putAll(extra);
    return StoreOptions.parse(m);
  }

  private static List<List<Long>> bucketsOnDisk(IamStore store) throws Exception {
    List<List<Long>> out = new ArrayList<>();
    for (List<byte[]> bucket : engine(store).bucketKeys()) {
      out.add(bucket.stream().map(k -> ByteBuffer.wrap(k).getLong()).toList());
    }
    return out;
  }

  private static List<List<Long>> paperBuckets() {
    List<List<Long>> out = new ArrayList<>();
    for (long[] b : PAPER_BUCKETS) {
      out.add(List.of(b[0], b[1]));
    }
    return out;
  }

  /** Writes the example, one put per key; the value names the arrival. */
  private static TreeMap<Long, String> writePaperExample(IamStore store) throws Exception {
    TreeMap<Long, String> model = new TreeMap<>();
    for (int i = 0; i < PAPER_KEYS.length; i++) {
      String v = "arrival-" + (i + 1);
      store.put(key(PAPER_KEYS[i]), v.getBytes(StandardCharsets.UTF_8));
      model.put(PAPER_KEYS[i], v);
    }
    return model;
  }

  private static void assertReads(IamStore store, TreeMap<Long, String> model, String at) throws Exception {
    for (long k = 0; k <= 31; k++) {
      byte[] v = store.get(key(k));
      if (model.containsKey(k)) {
        assertArrayEquals(model.get(k).getBytes(StandardCharsets.UTF_8), v, at + ": get " + k);
      } else {
        assertNull(v, at + ": get " + k);
      }
    }
    try (StoreIterator it = store.iterator()) {
      it.seekToFirst();
      for (var e : model.entrySet()) {
        assertTrue(it.valid(), at + ": scan ended before " + e.getKey());
        assertEquals(e.getKey(), ByteBuffer.wrap(it.key()).getLong(), at);
        assertEquals(e.getValue(), new String(it.value(), StandardCharsets.UTF_8), at);
        it.next();
      }
      assertTrue(!it.valid(), at + ": extra keys");
    }
  }

  @Test
  void thePaperExampleWritesTheBucketsOfFigure2bAndNeverMerges(@TempDir Path dir) throws Exception {
    TreeMap<Long, String> model;
    try (IamStore store = IamStore.open(dir, options(Map.of()))) {
      model = writePaperExample(store);
      store.flushAndSettle(); // the memtable drains into the cache in arrival order
      assertEquals(paperBuckets(), bucketsOnDisk(store));
      Map<String, Number> p = store.properties();
      assertEquals(15, p.get("minmax.buckets").intValue());
      assertEquals(15L, p.get("minmax.buckets-written").longValue());
      assertEquals(p.get("minmax.bucket-bytes").longValue(), p.get("minmax.bucket-bytes-written").longValue());
      assertEquals(p.get("minmax.bucket-bytes-written").longValue(), p.get("flush.bytes").longValue());
      assertEquals(2, p.get("minmax.cache-entries").intValue(), "5 and 28 wait in the cache (Fig. 2b, last row)");
      assertEquals(0L, p.get("minmax.sorts").longValue());
      assertEquals(0L, p.get("compaction.count").longValue());
      assertEquals(0L, p.get("minmax.forced-evictions").longValue());
      assertReads(store, model, "settled");
      // Table 2, Min-Max column: a range read opens only the buckets the IB-tree finds for it.
      long[][] queries = {{19, 20, 2, 2}, {11, 12, 2, 2}, {14, 20, 4, 6}};
      for (long[] q : queries) {
        long before = StoreInternals.counters(store).minmaxRangeBuckets.sum();
        int keys = 0;
        try (StoreIterator it = store.iterator(new ReadOptions(null, key(q[1] + 1)))) {
          for (it.seek(key(q[0])); it.valid(); it.next()) {
            keys++;
          }
        }
        String range = "range [" + q[0] + ", " + q[1] + "]";
        assertEquals(q[3], keys, range + ": keys");
        assertEquals(q[2], StoreInternals.counters(store).minmaxRangeBuckets.sum() - before, range + ": buckets read");
      }
      assertTrue(store.describe().contains("min-max: 15 buckets"), store.describe());
    }
    // Reopened: the manifest lists the same buckets; 5 and 28 come back from the log.
    try (IamStore store = IamStore.open(dir, options(Map.of()))) {
      store.flushAndSettle();
      assertEquals(paperBuckets(), bucketsOnDisk(store));
      assertEquals(2, engine(store).cachedEntries());
      assertReads(store, model, "reopened");
    }
  }

  @Test
  void snapshotsReadOlderVersionsInTheCacheAndTheBuckets(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, options(Map.of("minmax-cache", "8", "minmax-window", "3")))) {
      for (int i = 0; i < 20; i++) {
        store.put(key(i), ("old" + i).getBytes(StandardCharsets.UTF_8));
      }
      Snapshot snap = store.snapshot();
      for (int i = 0; i < 20; i += 2) {
        store.put(key(i), ("new" + i).getBytes(StandardCharsets.UTF_8));
      }
      store.delete(key(3));
      store.flushAndSettle();
      assertTrue(store.levels().get(0).size() > 3, store.describe());
      for (int i = 0; i < 20; i++) {
        assertArrayEquals(("old" + i).getBytes(StandardCharsets.UTF_8), store.get(key(i), ReadOptions.at(snap)), "snapshot " + i);
        byte[] latest = store.get(key(i));
        if (i == 3) {
          assertNull(latest);
        } else {
          assertArrayEquals(((i % 2 == 0 ? "new" : "old") + i).getBytes(StandardCharsets.UTF_8), latest, "latest " + i);
        }
      }
      snap.close();
      assertTrue(store.properties().get("minmax.point-read-buckets").longValue() > 0);
    }
  }

  @Test
  void theLogStaysWhileTheCacheHoldsItsWrites(@TempDir Path dir) throws Exception {
    // Small memtables: each flush drains one into a large cache that evicts rarely, so most
    // writes are only in the cache and in old logs when the store is dropped without a flush.
    OptionValues opts = options(Map.of("minmax-cache", "2000", "minmax-window", "100", "memtable-size", "64KiB"));
    TreeMap<Long, String> model = new TreeMap<>();
    IamStore store = IamStore.open(dir, opts);
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
    for (int i = 0; i < 3000; i++) {
      long k = rnd.nextInt(5000);
      String v = "v" + i + "-" + "x".repeat(rnd.nextInt(40));
      store.put(key(k), v.getBytes(StandardCharsets.UTF_8));
      model.put(k, v);
    }
    store.flushAndSettle();
    assertTrue(engine(store).cachedEntries() > 0, "the cache holds entries");
    assertTrue(store.levels().get(0).size() > 0, "buckets were written");
    store.close(); // the cache is lost; the logs must bring it back
    try (IamStore again = IamStore.open(dir, opts)) {
      again.flushAndSettle();
      for (var e : model.entrySet()) {
        assertArrayEquals(e.getValue().getBytes(StandardCharsets.UTF_8), again.get(key(e.getKey())), "get " + e.getKey());
      }
      assertEquals(model.size(), TestStores.countKeys(again));
    }
  }

  @Test
  void theMaintenanceSortMergesBucketsSharingAKeyBeyondTheLimit(@TempDir Path dir) throws Exception {
    TreeMap<Long, String> model;
    try (IamStore store = IamStore.open(dir, options(Map.of("minmax-sort-overlap", "1")))) {
      model = writePaperExample(store);
      store.flushAndSettle(); // sorts until no key is held by more than one bucket
      Map<String, Number> p = store.properties();
      assertTrue(p.get("minmax.sorts").longValue() > 0, p.toString());
      assertEquals(1, p.get("minmax.max-overlap").intValue(), store.describe());
      assertTrue(p.get("write-amplification").doubleValue() > 0);
      assertReads(store, model, "sorted");
    }
    try (IamStore store = IamStore.open(dir, options(Map.of("minmax-sort-overlap", "1")))) {
      store.flushAndSettle();
      assertReads(store, model, "sorted, reopened");
    }
  }

  @Test
  void anOutlierKeyDoesNotPinEveryLogForever(@TempDir Path dir) throws Exception {
    // The outlier is far from every other key, so no compact window holds it; without the early
    // eviction it would keep the first log, and every later one, for as long as it is cached.
    OptionValues opts = options(Map.of("minmax-cache", "2000", "minmax-window", "100", "memtable-size", "64KiB"));
    TreeMap<Long, String> model = new TreeMap<>();
    try (IamStore store = IamStore.open(dir, opts)) {
      store.put(key(Long.MAX_VALUE), "outlier".getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < 8000; i++) {
        String v = "v" + i + "-" + "y".repeat(60);
        store.put(key(i), v.getBytes(StandardCharsets.UTF_8));
        model.put((long) i, v);
      }
      store.flushAndSettle();
      assertTrue(StoreInternals.counters(store).minmaxForcedEvictions.sum() > 0, store.describe());
      long logs;
      try (var files = java.nio.file.Files.list(dir)) {
        logs = files.filter(f -> f.getFileName().toString().endsWith(".log")).count();
      }
      assertTrue(logs <= MinMaxEngine.MAX_PINNED_LOGS + 2, logs + " logs kept:\n" + store.describe());
    }
    model.put(Long.MAX_VALUE, "outlier");
    try (IamStore store = IamStore.open(dir, opts)) {
      store.flushAndSettle();
      for (var e : model.entrySet()) {
        assertArrayEquals(e.getValue().getBytes(StandardCharsets.UTF_8), store.get(key(e.getKey())), "get " + e.getKey());
      }
    }
  }

  /**
   * Readers on two threads while a writer keeps the cache evicting: every key loaded before the
   * readers start must be found by every get and scan, whether it is in the cache, moving to a
   * bucket, or in one (the ticket keeps evicted entries visible until the reader is done).
   */
  @Test
  void readersNeverMissAnEntryMovingFromTheCacheToABucket(@TempDir Path dir) throws Exception {
    OptionValues opts = options(Map.of("minmax-cache", "300", "minmax-window", "30", "memtable-size", "64KiB"));
    try (IamStore store = IamStore.open(dir, opts)) {
      for (int i = 0; i < 1000; i++) {
        store.put(key(2L * i), ("stable" + i).getBytes(StandardCharsets.UTF_8));
      }
      java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.ConcurrentLinkedQueue<String> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        long seed = t;
        Thread r = new Thread(() -> {
          java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
          try {
            while (!done.get() && errors.isEmpty()) {
              int i = rnd.nextInt(1000);
              byte[] v = store.get(key(2L * i));
              if (v == null || !new String(v, StandardCharsets.UTF_8).equals("stable" + i)) {
                errors.add("get " + (2L * i) + " returned " + (v == null ? null : new String(v, StandardCharsets.UTF_8)));
              }
              try (StoreIterator it = store.iterator()) {
                it.seek(key(2L * i));
                for (int j = i; j < Math.min(1000, i + 20); j++) {
                  while (it.valid() && ByteBuffer.wrap(it.key()).getLong() % 2 != 0) {
                    it.next(); // the writer's odd keys
                  }
                  if (!it.valid() || ByteBuffer.wrap(it.key()).getLong() != 2L * j) {
                    errors.add("scan from " + (2L * i) + " missed " + (2L * j));
                    break;
                  }
                  it.next();
                }
              }
            }
          } catch (Exception e) {
            errors.add(e.toString());
          }
        });
        r.start();
        readers.add(r);
      }
      for (int i = 0; i < 6000; i++) {
        store.put(key(2L * (i % 1000) + 1), ("odd" + i).getBytes(StandardCharsets.UTF_8));
      }
      store.flushAndSettle();
      done.set(true);
      for (Thread r : readers) {
        r.join();
      }
      assertEquals(List.of(), new ArrayList<>(errors));
      assertTrue(StoreInternals.counters(store).minmaxBuckets.sum() > 100, store.describe());
    }
  }

  @Test
  void badOrUnknownMinMaxOptionsAreErrorsNamingThem() {
    var e = org.junit.jupiter.api.Assertions.assertThrows(io.iam.core.option.InvalidOptionsException.class,
        () -> StoreOptions.parse(Map.of("minmax-window", "10", "minmax-cache", "4")));
    assertTrue(e.getMessage().contains("minmax-window=10") && e.getMessage().contains("minmax-cache=4"), e.getMessage());
    e = org.junit.jupiter.api.Assertions.assertThrows(io.iam.core.option.InvalidOptionsException.class,
        () -> StoreOptions.parse(Map.of("minmax-sort-overlap", "-1", "minmax-windw", "3")));
    assertTrue(e.getMessage().contains("minmax-sort-overlap") && e.getMessage().contains("minmax-windw"), e.getMessage());
    assertEquals(TreeKind.MINMAX, StoreOptions.parse(Map.of("tree", "minmax")).get(StoreOptions.TREE));
  }

}
