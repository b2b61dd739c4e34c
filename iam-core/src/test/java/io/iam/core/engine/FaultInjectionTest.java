package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.FaultInjectingFs;
import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.option.OptionValues;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.StoreFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Failed table writes and syncs make flushes and compactions (node flushes, appends and merges in
 * a node tree) fail; the store stays readable and consistent meanwhile, and retries the work once
 * the file system heals. Runs on every tree.
 */
class FaultInjectionTest {

  private static byte[] k(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static boolean tableWrite(FaultInjectingFs.Op op, Path path) {
    return path.getFileName().toString().endsWith(".mst")
        && (op == FaultInjectingFs.Op.WRITE || op == FaultInjectingFs.Op.SYNC);
  }

  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  @Timeout(120)
  void failedFlushesAndCompactionsAreRetriedWithoutLosingData(String tree, @TempDir Path dir) throws Exception {
    // Every table write or sync fails: flushes and compactions cannot finish (a node tree can
    // neither append to its node files nor write new ones).
    failBackgroundWorkThenHeal(tree, dir, fs -> fs.failWhen(FaultInjectionTest::tableWrite), store -> {});
  }

  /**
   * A bug that throws from inside a flush or compaction (here an unchecked exception from every
   * table write) is handled as an I/O error is: the work is counted and retried with backoff
   * (10 ms doubling to 1 s) instead of spinning, its partial output is deleted, the store stays
   * readable, and once the fault stops nothing is lost.
   */
  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  @Timeout(120)
  void anUncheckedFailureInBackgroundWorkBacksOffAndLosesNothing(String tree, @TempDir Path dir) throws Exception {
    failBackgroundWorkThenHeal(tree, dir, fs -> fs.failUncheckedWhen(FaultInjectionTest::tableWrite), store -> {
      long before = failures(store);
      Thread.sleep(1000);
      long retries = failures(store) - before;
      // With the backoff a second holds about 7 attempts of each kind of work; a loop without it
      // fails thousands of times.
      assertTrue(retries <= 40, retries + " failed attempts in one second: the retries do not back off");
    });
  }

  /** What a test checks while the background work keeps failing. */
  @FunctionalInterface
  private interface WhileFailing {
    void check(IamStore store) throws Exception;
  }

  /**
   * Loads a store, turns the fault on, writes enough to need a flush, waits until the background
   * work has failed, runs {@code whileFailing}, checks every write is readable, heals, and checks
   * that the work then completes, nothing is lost (also after a reopen) and no failed output is left.
   */
  private static void failBackgroundWorkThenHeal(String tree, Path dir, java.util.function.Consumer<FaultInjectingFs> fault,
      WhileFailing whileFailing) throws Exception {
    Case c = new Case(tree);
    try (IamStore store = c.open(dir)) {
      for (int i = 0; i < 2000; i++) {
        byte[] v = ("v" + i).repeat(20).getBytes(StandardCharsets.UTF_8);
        store.put(k(i), v);
        c.model().put(k(i), v);
      }
      store.flushAndSettle(); // start from an empty memtable and no pending flush
      fault.accept(c.fs());
      // About 181 bytes per entry, 362 per 64 KiB memtable: 450 entries fill the memtable once (a
      // flush is attempted and fails) but not the two immutables allowed, so the writer never stalls.
      for (int i = 2000; i < 2450; i++) {
        byte[] v = ("w" + i).repeat(20).getBytes(StandardCharsets.UTF_8);
        store.put(k(i), v);
        c.model().put(k(i), v);
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (failures(store) == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertTrue(c.fs().injected() > 0, "no fault was injected");
      assertTrue(failures(store) > 0, "background work did not count the failures");
      whileFailing.check(store);
      // Readable and consistent while background work keeps failing.
      for (var e : c.model().entrySet()) {
        assertArrayEquals(e.getValue(), store.get(e.getKey()));
      }
      c.fs().heal();
      store.flushAndSettle();
      StoreModelTest.fullCheck(store, c.model(), c.at() + " after healing");
      assertTrue(store.verify() > 0);
      assertNoOrphanTables(store, c.fs(), dir, c.at());
    }
    c.assertReopenedStoreHoldsTheModel(dir);
  }

  private static long failures(IamStore store) {
    return store.statistics().counters().flushFailures.sum() + store.statistics().counters().compactionFailures.sum();
  }

  /**
   * Fails a seeded random 3% of table writes and syncs, up to {@code budget} faults, then none: the
   * faults land in the middle of memtable flushes, appends to node files, merges into new ones and
   * splits, whichever run then.
   */
  private static final class IntermittentFaults implements BiPredicate<FaultInjectingFs.Op, Path> {
    private final SplittableRandom random = new SplittableRandom(11);
    private int budget;

    IntermittentFaults(int budget) {
      this.budget = budget;
    }

    @Override
    public synchronized boolean test(FaultInjectingFs.Op op, Path path) {
      if (budget > 0 && tableWrite(op, path) && random.nextInt(100) < 3) {
        budget--;
        return true;
      }
      return false;
    }
  }

  /**
   * A node tree loaded while table writes fail now and then: node flushes fail part-way and are
   * retried, writers wait at worst, and once the faults stop every write is there, the tree
   * verifies, no failed output is left behind, and a reopened store reads the same.
   */
  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.NODE_TREES)
  @Timeout(120)
  void nodeFlushesFailingNowAndThenLoseNothing(String tree, @TempDir Path dir) throws Exception {
    Case c = new Case(tree);
    SplittableRandom random = new SplittableRandom(5);
    int budget = 12;
    try (IamStore store = c.open(dir)) {
      c.fs().failWhen(new IntermittentFaults(budget));
      for (int i = 0; i < 4000; i++) {
        int key = random.nextInt(1500);
        TestStores.put(store, c.model(), k(key), "v" + i);
      }
      store.flushAndSettle();
      // Seeded: the 12th fault falls on the 482nd table write or sync; the load makes about 700.
      assertEquals(budget, c.fs().injected(), c.at() + ": the faults did not all land");
      long failures = store.statistics().counters().flushFailures.sum() + store.statistics().counters().compactionFailures.sum();
      assertTrue(failures > 0, c.at() + ": no flush or node job failed");
      StoreModelTest.fullCheck(store, c.model(), c.at() + " after the faults");
      assertTrue(store.verify() > 0, c.at());
      assertTrue(store.depth() >= 2, c.at() + ": the load never flushed nodes into a second level");
      assertNoOrphanTables(store, c.fs(), dir, c.at());
    }
    c.assertReopenedStoreHoldsTheModel(dir);
  }

  /**
   * One case: its tree's small options, a fault-injecting file system and the model of what was
   * written. Min-Max gets a write cache of 40 entries, so that a flush of the 100 keys these tests
   * write before a fault evicts buckets (writes files and a manifest record) as other trees do.
   */
  private record Case(String at, OptionValues options, FaultInjectingFs fs, TreeMap<byte[], byte[]> model) {
    Case(String tree) {
      this("tree=" + tree, StoreModelTest.with(StoreModelTest.smallOptions(tree, 1),
              java.util.Map.of("minmax-cache", "40", "minmax-window", "8")), new FaultInjectingFs(LocalFs.INSTANCE),
          new TreeMap<>(java.util.Arrays::compareUnsigned));
    }

    IamStore open(Path dir) throws IOException {
      return IamStore.open(fs, dir, options, BytewiseComparator.INSTANCE);
    }

    /** Reopens the store on the local file system: it must hold the model and verify. */
    void assertReopenedStoreHoldsTheModel(Path dir) throws Exception {
      try (IamStore store = IamStore.open(dir, options)) {
        StoreModelTest.fullCheck(store, model, at + " after reopening");
        store.flushAndSettle(); // a node tree flushes recovered logs in the background
        StoreModelTest.fullCheck(store, model, at + " after reopening and settling");
        assertTrue(store.verify() > 0, at);
      }
    }
  }

  /** Every table file in the directory is live: failed flushes and compactions left nothing behind. */
  private static void assertNoOrphanTables(IamStore store, FaultInjectingFs fs, Path dir, String at) throws Exception {
    TreeSet<Long> live = new TreeSet<>();
    TreeSet<Long> onDisk = new TreeSet<>();
    // tree=lsbm keeps merged files as buffer files B_i; its background trim may have just removed
    // one whose deletion is still queued, so the check is retried for up to a second
    for (int attempt = 0; attempt < 100 && (attempt == 0 || !live.equals(onDisk)); attempt++) {
      if (attempt > 0) {
        Thread.sleep(10);
      }
      live.clear();
      onDisk.clear();
      store.levels().forEach(level -> level.stream().map(FileMeta::fileNumber).forEach(live::add));
      StoreTrees.compactionBuffer(store).allFiles().forEach(f -> live.add(f.fileNumber()));
      for (Path p : fs.list(dir)) {
        OptionalLong n = StoreFiles.tableNumber(p);
        n.ifPresent(onDisk::add);
      }
    }
    assertEquals(live, onDisk, at + ": table files on disk that no version holds");
  }

  /**
   * Writes 100 keys to the memtable, makes the first manifest {@code op} fail, and flushes on a
   * thread of its own until it did; returns that thread.
   */
  private static Thread flushWithAManifestFault(IamStore store, Case c, FaultInjectingFs.Op op) throws Exception {
    for (int i = 0; i < 100; i++) {
      TestStores.put(store, c.model(), k(i), "v" + i);
    }
    AtomicInteger left = new AtomicInteger(1);
    c.fs().failWhen((o, path) -> o == op && path.getFileName().toString().startsWith("MANIFEST-") && left.getAndDecrement() > 0);
    Thread settle = TestStores.settleInBackground(store);
    assertTrue(TestStores.await(() -> c.fs().injected() > 0, 10), c.at() + ": no manifest " + op + " failed");
    return settle;
  }

  /**
   * The first flush of an empty store writes new table files; its manifest record is written but
   * the manifest's sync fails once. The record may be durable (here it is: only the sync failed),
   * so the files it names must survive; after a reopen every write must read back.
   */
  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  @Timeout(60)
  void aManifestSyncFailureDoesNotLoseTheFilesItsRecordNames(String tree, @TempDir Path dir) throws Exception {
    Case c = new Case(tree);
    try (IamStore store = c.open(dir)) {
      flushWithAManifestFault(store, c, FaultInjectingFs.Op.SYNC);
    }
    c.assertReopenedStoreHoldsTheModel(dir);
  }

  /**
   * One manifest write fails, then the file system heals: like a failed table write, the failed
   * flush must be retried and succeed, so the store settles and takes writes again without a
   * reopen.
   */
  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  @Timeout(60)
  void flushesResumeAfterATransientManifestFault(String tree, @TempDir Path dir) throws Exception {
    Case c = new Case(tree);
    try (IamStore store = c.open(dir)) {
      Thread settle = flushWithAManifestFault(store, c, FaultInjectingFs.Op.WRITE);
      settle.join(10_000);
      assertFalse(settle.isAlive(), c.at() + ": the store did not settle within 10 s of one failed manifest write");
      for (int i = 0; i < 1500; i++) {
        TestStores.put(store, c.model(), k(i), "w" + i); // several memtables: stalls for good if flushes cannot commit
      }
      store.flushAndSettle();
      StoreModelTest.fullCheck(store, c.model(), c.at() + " after the fault");
    }
  }
}
