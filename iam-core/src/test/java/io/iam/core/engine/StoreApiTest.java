package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.KeyComparator;
import io.iam.core.option.OptionValues;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(120)
class StoreApiTest {

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Descending unsigned byte order. */
  private static final KeyComparator REVERSE = new KeyComparator() {
    @Override
    public int compare(byte[] a, int aOff, int aLen, byte[] c, int cOff, int cLen) {
      return BytewiseComparator.INSTANCE.compare(c, cOff, cLen, a, aOff, aLen);
    }

    @Override
    public String name() {
      return "test.Reverse";
    }
  };

  /** The comparator is recorded in the manifest: reopening with it reads everything back, with another is refused. */
  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void aCustomComparatorOrdersIterationAndIsRecordedInTheStore(String tree, @TempDir Path dir) throws Exception {
    OptionValues options = StoreModelTest.smallOptions(tree, 1);
    try (IamStore store = IamStore.open(LocalFs.INSTANCE, dir, options, REVERSE)) {
      for (int i = 0; i < 3000; i++) {
        store.put(b(String.format("k%04d", i)), b("v" + i));
      }
      store.flushAndSettle();
      assertDescending(store, tree);
      assertArrayEquals(b("v17"), store.get(b("k0017")));
    }
    try (IamStore store = IamStore.open(LocalFs.INSTANCE, dir, options, REVERSE)) {
      assertDescending(store, tree + " after reopening");
      for (int i = 0; i < 3000; i += 7) {
        assertArrayEquals(b("v" + i), store.get(b(String.format("k%04d", i))), "tree=" + tree + ": key " + i);
      }
      assertTrue(store.verify() > 0);
    }
    IOException e = assertThrows(IOException.class,
        () -> IamStore.open(LocalFs.INSTANCE, dir, options, BytewiseComparator.INSTANCE));
    assertTrue(e.getMessage().contains("test.Reverse"), e.getMessage());
  }

  private static void assertDescending(IamStore store, String at) throws IOException {
    try (StoreIterator it = store.iterator()) {
      it.seekToFirst();
      for (int i = 2999; i >= 0; i--) {
        assertTrue(it.valid(), "tree=" + at + ": the scan ended before k" + i);
        assertArrayEquals(b(String.format("k%04d", i)), it.key(), "tree=" + at);
        it.next();
      }
      assertFalse(it.valid(), "tree=" + at + ": extra keys");
    }
  }

  /** Synced writes share fsyncs, and every one of them is there after a reopen. */
  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void concurrentSyncedWritersShareFsyncs(String tree, @TempDir Path dir) throws Exception {
    int threads = 8;
    int perThread = 150;
    OptionValues options = StoreModelTest.defaultOptions(tree);
    try (IamStore store = IamStore.open(dir, options)) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        done.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            store.put(b("t" + id + "-" + i), b("v" + i), WriteOptions.SYNC);
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < perThread; i++) {
          assertArrayEquals(b("v" + i), store.get(b("t" + t + "-" + i)));
        }
      }
      long syncs = store.statistics().asMap().get("wal.syncs").longValue();
      assertTrue(syncs > 0 && syncs < threads * perThread,
          "expected group commit to share fsyncs: " + syncs + " syncs for " + threads * perThread + " synced writes");
    }
    try (IamStore store = IamStore.open(dir, options)) {
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < perThread; i++) {
          assertArrayEquals(b("v" + i), store.get(b("t" + t + "-" + i)), "tree=" + tree + " after reopening");
        }
      }
    }
  }

  /**
   * Reads take their view without the store's mutex: while memtables switch, flush and compact
   * underneath, a point read never returns a value older than one whose write had returned before
   * the read began.
   */
  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void pointReadsNeverGoBackInTime(String tree, @TempDir Path dir) throws Exception {
    int keys = 8;
    try (IamStore store = IamStore.open(dir, StoreModelTest.smallOptions(tree, 2))) {
      AtomicLongArray acknowledged = new AtomicLongArray(keys);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong reads = new AtomicLong();
      Thread reader = new Thread(() -> {
        java.util.SplittableRandom r = new java.util.SplittableRandom(1);
        while (!stop.get()) {
          int k = r.nextInt(keys);
          long floor = acknowledged.get(k);
          try {
            byte[] v = store.get(b("key" + k));
            long seen = v == null ? 0 : Long.parseLong(new String(v, StandardCharsets.UTF_8).trim());
            assertTrue(seen >= floor, "key" + k + ": read " + seen + " after " + floor + " was written");
          } catch (IOException e) {
            throw new RuntimeException(e);
          }
          reads.incrementAndGet();
        }
      });
      List<Throwable> failures = new ArrayList<>();
      reader.setUncaughtExceptionHandler((t, e) -> failures.add(e));
      reader.start();
      for (long i = 1; i <= 6000; i++) {
        int k = (int) (i % keys);
        store.put(b("key" + k), b(String.format("%-200d", i))); // padded: small memtables switch often
        acknowledged.set(k, i);
      }
      stop.set(true);
      reader.join();
      assertTrue(failures.isEmpty(), failures.toString());
      assertTrue(reads.get() > 0);
      assertTrue(store.properties().get("flush.count").longValue() > 0, "memtables were flushed during the reads");
    }
  }

  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void scansNeverSeeHalfABatch(String tree, @TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, StoreModelTest.smallOptions(tree, 2))) {
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong scans = new AtomicLong();
      Thread reader = new Thread(() -> {
        while (!stop.get()) {
          try (StoreIterator it = store.iterator()) {
            long n = 0;
            for (it.seekToFirst(); it.valid(); it.next()) {
              n++;
            }
            assertEquals(0, n % 3, "a scan saw part of a batch");
            scans.incrementAndGet();
          } catch (IOException e) {
            throw new RuntimeException(e);
          }
        }
      });
      List<Throwable> failures = new ArrayList<>();
      reader.setUncaughtExceptionHandler((t, e) -> failures.add(e));
      reader.start();
      for (int i = 0; i < 3000; i++) {
        store.write(new WriteBatch().put(b(i + "a"), b("x")).put(b(i + "b"), b("y")).put(b(i + "c"), b("z")),
            WriteOptions.DEFAULT);
      }
      stop.set(true);
      reader.join();
      assertTrue(failures.isEmpty(), failures.toString());
      assertTrue(scans.get() > 0);
    }
  }

  /**
   * A manifest that reaches max-manifest-size is replaced by one holding only the current state:
   * the store switches several times, never keeps more than the manifest in use and the one a
   * switch is writing, ends with one, and everything reads back after a reopen, which replays the
   * last manifest.
   */
  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void aManifestThatReachesItsLimitIsReplacedByTheState(String tree, @TempDir Path dir) throws Exception {
    java.util.Map<String, String> opts = new java.util.HashMap<>(StoreModelTest.smallOptions(tree, 1).asStrings());
    opts.put("max-manifest-size", "1KiB");
    OptionValues options = StoreOptions.parse(opts);
    int n = 12_000;
    try (IamStore store = IamStore.open(dir, options)) {
      for (int i = 0; i < n; i++) {
        store.put(b(String.format("%08d", i * 7919 % n)), manifestTestValue(i));
        if (i % 1000 == 999) {
          assertAtMostOneManifest(dir, tree);
        }
      }
      store.flushAndSettle();
      long rolls = store.properties().get("manifest.rolls").longValue();
      assertTrue(rolls >= 3, "tree=" + tree + ": the manifest was replaced " + rolls + " times");
    }
    List<Path> manifests = assertAtMostOneManifest(dir, tree);
    assertEquals(1, manifests.size());
    try (IamStore store = IamStore.open(dir, options)) {
      for (int i = 0; i < n; i++) {
        assertArrayEquals(manifestTestValue(i), store.get(b(String.format("%08d", i * 7919 % n))), "tree=" + tree + ", key " + i);
      }
    }
  }

  /**
   * A crash while a new manifest is written, before CURRENT names it, leaves a manifest with a
   * number the old manifest never recorded as used. The next open must not try to start its own
   * manifest under that number (the crash tests met FileAlreadyExistsException there once
   * manifests were replaced during runs), and the leftovers go with the open's purge.
   */
  @Test
  void openStepsOverManifestsACrashLeftBehind(@TempDir Path dir) throws Exception {
    OptionValues options = StoreModelTest.smallOptions(1);
    try (IamStore store = IamStore.open(dir, options)) {
      store.put(b("k"), b("v"));
    }
    long current = Long.parseLong(java.nio.file.Files.readString(dir.resolve("CURRENT")).trim().substring("MANIFEST-".length()));
    for (long n = current + 1; n <= current + 64; n++) {
      java.nio.file.Files.write(dir.resolve(String.format("MANIFEST-%06d", n)), new byte[] {1, 2, 3});
    }
    try (IamStore store = IamStore.open(dir, options)) {
      assertArrayEquals(b("v"), store.get(b("k")));
    }
    assertEquals(1, assertAtMostOneManifest(dir, "leveled").size(), "the leftovers were purged");
  }

  /** 200 bytes naming write {@code i}: 12,000 of them fill about 36 memtables of 64 KiB. */
  private static byte[] manifestTestValue(int i) {
    byte[] v = java.util.Arrays.copyOf(b("v" + i + ":"), 200);
    java.util.Arrays.fill(v, 8, 200, (byte) ('a' + i % 26));
    return v;
  }

  /** The manifests in {@code dir}: at most one, besides one that a switch in progress is writing. */
  private static List<Path> assertAtMostOneManifest(Path dir, String tree) throws IOException {
    List<Path> manifests;
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
      manifests = files.filter(p -> p.getFileName().toString().startsWith("MANIFEST-")).toList();
    }
    assertTrue(manifests.size() <= 2, "tree=" + tree + ": manifests left behind: " + manifests);
    return manifests;
  }

  /** Leveled only: about throughput, not durability (node trees pace the same limiter in TableCache). */
  @Test
  void theCompactionRateLimitHoldsBackgroundWritesToIt(@TempDir Path dir) throws Exception {
    // 256 KiB/s: flushing and compacting about 1 MiB cannot finish in under ~2 s (Guava's limiter
    // lends at most one second of permits in advance). A lower bound only: it cannot pass by luck.
    java.util.Map<String, String> opts = new java.util.HashMap<>(StoreModelTest.smallOptions(1).asStrings());
    opts.put("compaction-rate-limit", "256KiB");
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(opts))) {
      long start = System.nanoTime();
      for (int i = 0; i < 4000; i++) {
        store.put(b(String.format("%08d", i)), new byte[256]);
      }
      store.flushAndSettle();
      long written = store.statistics().flushBytes() + store.statistics().compactionBytesWritten();
      double seconds = (System.nanoTime() - start) / 1e9;
      assertTrue(written > 1 << 20, "too little written to test the limit: " + written);
      assertTrue(seconds >= (written / (256.0 * 1024)) - 1.5,
          "wrote " + written + " bytes in " + seconds + " s, faster than 256 KiB/s allows");
    }
  }

  /** Leveled only: it expects level-0 rows and one sequence per file, which node trees do not have. */
  @Test
  void statisticsArePrintableAndComplete(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, StoreModelTest.smallOptions(1))) {
      for (int i = 0; i < 5000; i++) {
        store.put(b(String.format("%08d", (i * 7919) % 5000)), new byte[200]);
      }
      store.flushAndSettle();
      Statistics s = store.statistics();
      assertTrue(s.writeAmplification() >= 1.0, "write-amp " + s.writeAmplification());
      assertTrue(s.writeAmplificationWithWal() > s.writeAmplification());
      assertEquals(s.flushBytes(), s.bytesWrittenTo(0));
      double perLevel = 0;
      for (int level = 0; level < s.levels(); level++) {
        perLevel += s.writeAmplification(level);
      }
      assertEquals(s.writeAmplification(), perLevel, 1e-9);
      String table = store.describe();
      assertTrue(table.contains("L0") && table.contains("W-Amp") && table.contains("block cache"), table);
      var props = store.properties();
      assertNotNull(props.get("level.1.files"));
      assertEquals(store.diskBytes(), props.get("disk.bytes").longValue());
      assertTrue(props.get("bloom.checked").longValue() >= 0);
      // Reads fill the cache; its residency shows per level and matches the cache's own count.
      for (int i = 0; i < 5000; i += 7) {
        store.get(b(String.format("%08d", i)));
      }
      props = store.properties();
      long cachedBlocks = 0;
      long sequences = 0;
      for (int level = 0; level < s.levels(); level++) {
        cachedBlocks += props.get("level." + level + ".cached-blocks").longValue();
        sequences += props.get("level." + level + ".sequences").longValue();
      }
      assertTrue(cachedBlocks > 0, "reads left no block resident");
      assertEquals(store.levels().stream().mapToLong(java.util.List::size).sum(), sequences,
          "a leveled tree keeps one sequence per file");
      assertTrue(props.get("bloom.checked").longValue() > 0);
    }
  }
}
