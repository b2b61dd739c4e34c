package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.option.OptionValues;
import io.iam.core.manifest.NodeMeta;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Behaviour specific to the node trees (LSA, IAM, LSM-merge) that the model tests do not pin down. */
class NodeTreeTest {

  private static OptionValues options(String tree, int threads, String memtable) {
    Map<String, String> m = new HashMap<>();
    m.put("tree", tree);
    m.put("fanout", "4");
    m.put("memtable-size", memtable);
    m.put("block-cache-size", "256KiB");
    m.put("background-threads", Integer.toString(threads));
    return StoreOptions.parse(m);
  }

  private static byte[] key(long i) {
    return String.format("user%019d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] value(SplittableRandom random) {
    byte[] v = new byte[200];
    random.nextBytes(v);
    return v;
  }

  /** Everything a store holds, in key order, as key + value pairs. */
  private static List<byte[][]> contents(IamStore store) throws Exception {
    List<byte[][]> out = new ArrayList<>();
    try (StoreIterator it = store.iterator()) {
      for (it.seekToFirst(); it.valid(); it.next()) {
        out.add(new byte[][] {it.key(), it.value()});
      }
    }
    return out;
  }

  private static void hashLoad(IamStore store, long seed, int records) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < records; i++) {
      store.put(key(random.nextLong(1_000_000_000L)), value(random));
    }
    store.flushAndSettle();
  }

  @ParameterizedTest(name = "tree={0}")
  @ValueSource(strings = {"iam", "lsa"})
  void fourThreadsWorkOnDisjointNodesInParallelAndKeepTheSameData(String tree, @TempDir Path dir) throws Exception {
    List<byte[][]> single;
    try (IamStore store = IamStore.open(dir.resolve("one"), options(tree, 1, "64KiB"))) {
      hashLoad(store, 7, 6000);
      single = contents(store);
      assertEquals(0L, store.properties().get("node.parallel-jobs").longValue(), "one thread never overlaps jobs");
    }
    try (IamStore store = IamStore.open(dir.resolve("four"), options(tree, 4, "64KiB"))) {
      hashLoad(store, 7, 6000);
      assertTrue(store.properties().get("node.parallel-jobs").longValue() > 0, "jobs overlapped: " + store.properties());
      List<byte[][]> parallel = contents(store);
      assertEquals(single.size(), parallel.size());
      for (int i = 0; i < single.size(); i++) {
        assertArrayEquals(single.get(i)[0], parallel.get(i)[0], "key " + i);
        assertArrayEquals(single.get(i)[1], parallel.get(i)[1], "value " + i);
      }
      assertTrue(store.verify() > 0);
      assertTrue(store.depth() >= 3, "depth " + store.depth());
    }
  }

  @ParameterizedTest(name = "tree={0}")
  @ValueSource(strings = {"iam", "lsa", "lsm-merge"})
  void aSequentialLoadWritesEachByteOnce(String tree, @TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, options(tree, 1, "64KiB"))) {
      SplittableRandom random = new SplittableRandom(1);
      for (int i = 0; i < 8000; i++) {
        store.put(key(i), value(random));
      }
      store.flushAndSettle();
      Map<String, Number> p = store.properties();
      double wa = store.statistics().writeAmplification();
      assertTrue(wa > 0.9 && wa < 1.1, "write amplification " + wa + "\n" + store.describe());
      assertTrue(p.get("node.moves").longValue() > 10, "nodes moved down without rewrites: " + p.get("node.moves"));
      assertEquals(0L, p.get("node.merges").longValue() + p.get("node.cuts").longValue());
      assertTrue(store.depth() >= 2);
    }
  }

  @ParameterizedTest(name = "tree={0}")
  @ValueSource(strings = {"iam", "lsa"})
  void aNodeThatMovesDownLeavesItsRangeOnItsLevel(String tree, @TempDir Path dir) throws Exception {
    // §4.2.1: a move adds a node to the next level and leaves N_i as it was, so each internal
    // level keeps the t^i nodes it had when the level below was added (§4.2.3). Had a move taken
    // its node away, the neighbours would have taken over its range and later merged into the
    // moved node; the kernel's simulator then ended with 8, 93 and 825 nodes instead of 10, 100
    // and 1,000.
    Map<String, String> m = new HashMap<>(Map.of("tree", tree, "fanout", "4", "memtable-size", "64KiB",
        "block-cache-size", "256KiB"));
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(m))) {
      hashLoad(store, 5, 16000);
      int depth = store.depth();
      assertTrue(depth >= 4, "depth " + depth);
      assertTrue(store.properties().get("node.moves").longValue() > 0, "nodes moved: " + store.describe());
      List<List<NodeMeta>> nodes = store.nodes();
      for (int level = 1; level < depth; level++) {
        assertEquals((int) Math.pow(4, level), nodes.get(level).size(), "N_" + level + "\n" + store.describe());
      }
    }
  }

  @Test
  void lsaAppendsWhereIamMergesBelowItsMixedLevel(@TempDir Path dir) throws Exception {
    Map<String, Number> lsa;
    Map<String, Number> iam;
    try (IamStore store = IamStore.open(dir.resolve("lsa"), options("lsa", 1, "64KiB"))) {
      hashLoad(store, 3, 6000);
      lsa = store.properties();
    }
    Map<String, String> m = new HashMap<>(Map.of("tree", "iam", "fanout", "4", "memtable-size", "64KiB",
        "mixed-level", "2", "mixed-level-sequences", "2"));
    try (IamStore store = IamStore.open(dir.resolve("iam"), StoreOptions.parse(m))) {
      hashLoad(store, 3, 6000);
      iam = store.properties();
      assertEquals(2, iam.get("tree.mixed-level").intValue());
      assertEquals(2, iam.get("tree.max-sequences").intValue());
      int depth = store.depth();
      List<List<NodeMeta>> nodes = store.nodes();
      for (int level = 3; level < depth; level++) {
        for (NodeMeta n : nodes.get(level)) {
          assertTrue(n.sequences() <= 1, "a merging level holds one sequence per node: " + n);
        }
      }
      for (NodeMeta n : nodes.get(2)) {
        assertTrue(n.sequences() <= 2, "the mixed level holds at most k = 2 sequences per node: " + n);
      }
    }
    assertEquals(0L, lsa.get("node.merges").longValue(), "LSA only appends (full leaves are cut, not merged)");
    assertTrue(iam.get("node.merges").longValue() > 0);
    assertTrue(lsa.get("level.2.mean-sequences").doubleValue() > 1.0, "LSA nodes hold several sequences");
  }

  @ParameterizedTest(name = "tree={0}")
  @ValueSource(strings = {"iam", "lsa"})
  void scansCountTheSequencesTheyRead(String tree, @TempDir Path dir) throws Exception {
    Map<String, String> m = new HashMap<>(options(tree, 1, "64KiB").asStrings());
    m.put("append-caching", "on-read");
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(m))) {
      hashLoad(store, 5, 4000);
      long before = store.statistics().scanSequences();
      try (StoreIterator it = store.iterator()) {
        it.seek(key(0));
        assertTrue(it.valid());
      }
      assertEquals(1, store.statistics().scans());
      long touched = store.statistics().scanSequences() - before;
      assertTrue(touched >= store.depth() - 1, "a scan reads at least one sequence on most levels: " + touched);
      long uncached = store.statistics().scanUncachedSequences();
      assertEquals(touched, uncached, "the cache is cold until read (append-caching=on-read)");
      try (StoreIterator it = store.iterator()) {
        it.seek(key(0));
        assertTrue(it.valid());
      }
      assertEquals(uncached, store.statistics().scanUncachedSequences(),
          "the first scan brought the blocks it started in into the cache");
      assertTrue(store.statistics().scanMaxUncachedPerLevel() >= 1);
    }
  }

  /**
   * The scan target: with the protected pool and on-write caching, after a load that forms
   * at least three levels, a scan finds at most one uncached sequence on any level, even while
   * point reads of the whole key space churn the rest of the cache. Both protection rules: only
   * appended sequences (the default), and the paper's whole appending levels.
   */
  @ParameterizedTest
  @ValueSource(strings = {"appended", "paper"})
  void iamScansTouchAtMostOneUncachedSequencePerLevel(String protectedSequences, @TempDir Path dir) throws Exception {
    Map<String, String> m = new HashMap<>(Map.of("tree", "iam", "fanout", "4", "memtable-size", "64KiB",
        "block-cache-size", CACHE_FOR_SCANS, "append-caching", "on-write", "protected-sequences", protectedSequences));
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(m))) {
      hashLoad(store, 21, RECORDS_FOR_SCANS);
      Map<String, Number> p = store.properties();
      assertTrue(store.depth() >= 3, "the load formed three levels: " + store.depth());
      int mixed = p.get("tree.mixed-level").intValue();
      assertTrue(mixed <= store.depth(), "the cache is too small to keep every level: m = " + mixed);
      SplittableRandom random = new SplittableRandom(5);
      for (int i = 0; i < 2000; i++) {
        store.get(key(random.nextLong(1_000_000_000L))); // churns the unprotected pool
        if (i % 4 == 0) {
          try (StoreIterator it = store.iterator()) {
            it.seek(key(random.nextLong(1_000_000_000L)));
            for (int n = 0; n < 20 && it.valid(); n++) {
              it.next();
            }
          }
        }
      }
      p = store.properties();
      assertEquals(500, store.statistics().scans());
      assertTrue(store.statistics().scanSequences() > 500L * store.depth() / 2);
      assertTrue(p.get("block-cache.protected-used-bytes").longValue() > 0);
      assertEquals(1, store.statistics().scanMaxUncachedPerLevel(),
          "at most one uncached sequence per level: " + p);
      for (int level = 1; level <= store.depth(); level++) {
        assertTrue(p.get("level." + level + ".scan-max-uncached").longValue() <= 1, "level " + level + ": " + p);
      }
    }
  }

  /**
   * A node that moves down into a level whose cap its sequences pass keeps them (no rewrite) when
   * the m/k rule's budget holds its appended sequences ({@link io.iam.core.tree.iam.MkChooser#fits},
   * whose arithmetic MkChooserTest checks by hand), and is rewritten as one sequence where no
   * sequence may be kept: here with m and k fixed by options, which the budget does not govern.
   * Either way every record reads back, and scans meet at most one uncached sequence per level.
   */
  @Test
  void aMoveKeepsItsSequencesOnlyWhereTheCacheHoldsThem(@TempDir Path dir) throws Exception {
    Map<String, String> m = new HashMap<>(Map.of("tree", "iam", "fanout", "4", "memtable-size", "64KiB",
        "block-cache-size", CACHE_FOR_SCANS, "append-caching", "on-write"));
    // Whether a node moves past a level's cap at all depends on the m the rule chose just then,
    // which follows how full the levels were, and so on how memtable flushes and node jobs
    // interleaved: one run of the full suite chose m = 1 throughout and no move
    // passed a cap. So up to three loads, each checked in full, until one has such a move.
    long kept = 0;
    for (long seed = 21; seed < 24 && kept == 0; seed++) {
      kept = moveLoad(dir.resolve("free-" + seed), m, seed).get("node.moves-kept").longValue();
    }
    assertTrue(kept > 0, "with room, moves keep their sequences (three loads)");
    m.put("mixed-level", "2");
    m.put("mixed-level-sequences", "3");
    Map<String, Number> p = moveLoad(dir.resolve("fixed"), m, 21);
    assertEquals(0, p.get("node.moves-kept").longValue(), "with m fixed no move keeps its sequences: " + p);
    assertTrue(p.get("node.moves-rewritten").longValue() > 0, "a move past the mixed level rewrites its sequences as one: " + p);
  }

  /** Loads a store, checks every record and the scans' uncached sequences, and returns its properties. */
  private static Map<String, Number> moveLoad(Path dir, Map<String, String> m, long seed) throws Exception {
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(m))) {
      hashLoad(store, seed, RECORDS_FOR_SCANS);
      assertTrue(store.verify() > 0);
      assertEquals(hashLoaded(seed, RECORDS_FOR_SCANS), render(contents(store)));
      try (StoreIterator it = store.iterator()) {
        for (it.seekToFirst(); it.valid(); it.next()) {
          it.key(); // a full scan: every sequence of every level
        }
      }
      assertTrue(store.statistics().scanMaxUncachedPerLevel() <= 1,
          "at most one uncached sequence per level: " + store.properties());
      return store.properties();
    }
  }

  /**
   * Which sequences the m/k rule protects above the mixed level: with {@code
   * protected-sequences=appended} (the default) a node's oldest sequence is left to the LRU, with
   * {@code paper} the node is protected whole (§5.1.3). Sequences lie oldest first in a file, so
   * offset 0 is the oldest sequence's first block.
   */
  @ParameterizedTest
  @ValueSource(strings = {"appended", "paper"})
  void theOldestSequenceAboveTheMixedLevelIsProtectedOnlyByThePapersRule(String rule, @TempDir Path dir)
      throws Exception {
    Map<String, String> m = new HashMap<>(Map.of("tree", "iam", "fanout", "4", "memtable-size", "64KiB",
        "block-cache-size", CACHE_FOR_SCANS, "append-caching", "on-write", "protected-sequences", rule));
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(m))) {
      hashLoad(store, 21, RECORDS_FOR_SCANS);
      int mixed = store.properties().get("tree.mixed-level").intValue();
      io.iam.core.cache.PriorityBlockCache pool = (io.iam.core.cache.PriorityBlockCache) store.blockCache();
      List<List<NodeMeta>> nodes = store.nodes();
      int checked = 0;
      for (int level = 1; level < mixed; level++) {
        for (NodeMeta n : nodes.get(level)) {
          if (n.file() != null) {
            assertEquals(rule.equals("paper"), pool.isProtected(n.file().fileNumber(), 0),
                "level " + level + " (m = " + mixed + "), file " + n.file().fileNumber() + ", rule " + rule);
            checked++;
          }
        }
      }
      assertTrue(checked > 0, "nodes above the mixed level: " + store.describe());
    }
  }

  /**
   * The m/k rule budgets the protected pool with what the appended sequences weigh in the cache:
   * with a cache that keeps every level (m past the deepest level) and on-write caching, every
   * protected block is resident after the load, and the ledger is exactly the pool's used bytes.
   * (An earlier version counted the sequences' bytes in the file, metadata included, and fell
   * short by about 1%: the cache charges each block an entry's overhead, and the index is not
   * cached.)
   */
  @Test
  void theRulesLedgerWeighsTheProtectedSequencesAsTheCacheDoes(@TempDir Path dir) throws Exception {
    Map<String, String> m = new HashMap<>(Map.of("tree", "iam", "fanout", "4", "memtable-size", "64KiB",
        "block-cache-size", "64MiB", "append-caching", "on-write"));
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(m))) {
      hashLoad(store, 13, 6000);
      Map<String, Number> p = store.properties();
      assertTrue(store.depth() >= 2, "the load formed two levels: " + store.describe());
      assertTrue(p.get("tree.mixed-level").intValue() > store.depth(), "every level appends: " + p);
      long ledger = p.get("block-cache.protected-ledger-bytes").longValue();
      assertTrue(ledger > 0, "nodes hold appended sequences: " + p);
      assertEquals(p.get("block-cache.protected-used-bytes").longValue(), ledger, "ledger against pool: " + p);
    }
  }

  /** What {@link #hashLoad} leaves in a store, rendered as "key=value-hash" lines in key order. */
  private static List<String> hashLoaded(long seed, int records) {
    SplittableRandom random = new SplittableRandom(seed);
    java.util.TreeMap<String, byte[]> model = new java.util.TreeMap<>();
    for (int i = 0; i < records; i++) {
      byte[] k = key(random.nextLong(1_000_000_000L));
      model.put(new String(k, StandardCharsets.US_ASCII), value(random));
    }
    List<String> out = new ArrayList<>();
    model.forEach((k, v) -> out.add(k + "=" + java.util.Arrays.hashCode(v)));
    return out;
  }

  private static List<String> render(List<byte[][]> entries) {
    List<String> out = new ArrayList<>();
    for (byte[][] e : entries) {
      out.add(new String(e[0], StandardCharsets.US_ASCII) + "=" + java.util.Arrays.hashCode(e[1]));
    }
    return out;
  }

  private static final String CACHE_FOR_SCANS = "1MiB";
  private static final int RECORDS_FOR_SCANS = 20_000;

  @Test
  void iamWithOnWriteCachesTheSequencesItAppendsAndOthersDoNot(@TempDir Path dir) throws Exception {
    Map<String, String> m = new HashMap<>(Map.of("tree", "iam", "fanout", "4", "memtable-size", "64KiB",
        "block-cache-size", "64MiB", "append-caching", "on-write"));
    try (IamStore store = IamStore.open(dir.resolve("iam"), StoreOptions.parse(m))) {
      hashLoad(store, 13, 4000);
      store.flushAndSettle();
      assertTrue(store.blockCache().usedBytes() > 0, "appended blocks are cached before any read");
      long misses = store.blockCache().misses();
      for (long i = 0; i < 50; i++) {
        store.get(key(i)); // mostly absent keys: their Bloom filters say so
      }
      long hits = store.blockCache().hits();
      // A full scan reads every live sequence once, so it meets the blocks cached as they were
      // written (a scan of the first key alone may meet only merged, uncached sequences: a CI run did).
      assertTrue(contents(store).size() > 3000);
      assertTrue(store.blockCache().hits() > hits, "a scan over the appended levels hits the cache");
      assertTrue(store.verify() > 0);
      assertTrue(store.blockCache().misses() >= misses);
    }
    m.put("append-caching", "on-read");
    try (IamStore store = IamStore.open(dir.resolve("iam-on-read"), StoreOptions.parse(m))) {
      hashLoad(store, 13, 4000);
      assertEquals(0, store.blockCache().usedBytes(), "on-read caches blocks only when they are read");
    }
    m.put("tree", "lsa");
    m.put("append-caching", "on-write");
    try (IamStore store = IamStore.open(dir.resolve("lsa"), StoreOptions.parse(m))) {
      hashLoad(store, 13, 4000);
      assertEquals(0, store.blockCache().usedBytes(), "LSA caches blocks only when they are read");
    }
  }

  /**
   * Flushes write on threads of their own, as RocksDB's flush pool: with one writer per node flush,
   * a memtable flush's appends into level 1 never queue behind a compaction's writes. Here every
   * sync on a compaction writer blocks until the end; the memtable flushes must still land.
   */
  @Test
  void aMemtableFlushDoesNotQueueBehindACompactionsWrites(@TempDir Path dir) throws Exception {
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicInteger blocked = new java.util.concurrent.atomic.AtomicInteger();
    io.iam.core.fs.Fs gate = onChildWriters(Around.DIRECT, sync -> {
      blocked.incrementAndGet();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException();
      }
      sync.run();
    });
    Map<String, String> m = new HashMap<>(Map.of("tree", "iam", "fanout", "4", "memtable-size", "64KiB",
        "block-cache-size", "1MiB", "node-flush-writers", "1", "max-immutable-memtables", "1"));
    try (IamStore store = IamStore.open(gate, dir, StoreOptions.parse(m), io.iam.core.key.BytewiseComparator.INSTANCE)) {
      SplittableRandom random = new SplittableRandom(3);
      // Three memtables of keys over one range: the first flush makes a level-1 node, the others
      // append to it; none of it needs a compaction, but each waits for the one before.
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () -> {
        for (int i = 0; i < 900; i++) {
          store.put(key(random.nextLong(1_000_000L)), value(random)); // stalls while a full memtable waits for its flush
        }
        while (store.statistics().counters().flushes.sum() < 2) {
          Thread.sleep(10);
        }
      }, "memtable flushes waited for the blocked compaction writer");
      assertTrue(store.nodes().get(1).stream().anyMatch(n -> n.file() != null), "level 1 holds the flushed data");
      assertTrue(store.properties().get("node.appends").longValue() > 0, "flushes appended: " + store.properties());
      assertTrue(contents(store).size() > 890);
    } finally {
      release.countDown();
    }
  }

  /**
   * With {@code node-flush-writers=1} a node flush's children are encoded strictly one at a time
   * (no two child writers are ever inside a write), yet a writer waiting for its sync makes way
   * for the next child, so syncs overlap; {@code node-flush-io-depth=1} makes each child wait for
   * its own syncs, as every writer once did. Every sync is slowed down so that overlaps show.
   */
  @ParameterizedTest(name = "node-flush-io-depth={0}")
  @ValueSource(ints = {8, 1})
  void oneWriterEncodesAloneWhileTheSyncsOfEarlierChildrenOverlap(int ioDepth, @TempDir Path dir) throws Exception {
    java.util.concurrent.atomic.AtomicInteger writing = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger syncing = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger mostWriting = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger mostSyncing = new java.util.concurrent.atomic.AtomicInteger();
    io.iam.core.fs.Fs slow = onChildWriters(counted(writing, mostWriting, 2), counted(syncing, mostSyncing, 20));
    Map<String, String> m = new HashMap<>(Map.of("tree", "iam", "fanout", "4", "memtable-size", "64KiB",
        "block-cache-size", "1MiB", "node-flush-writers", "1", "node-flush-io-depth", Integer.toString(ioDepth)));
    List<String> expected = hashLoaded(13, 4000);
    try (IamStore store = IamStore.open(slow, dir, StoreOptions.parse(m), io.iam.core.key.BytewiseComparator.INSTANCE)) {
      hashLoad(store, 13, 4000);
      assertTrue(store.properties().get("node.appends").longValue() > 10, "node flushes appended: " + store.properties());
      assertEquals(expected, render(contents(store)));
    }
    assertEquals(1, mostWriting.get(), "child writers inside a write at once");
    if (ioDepth > 1) {
      assertTrue(mostSyncing.get() >= 2, "syncs in flight at once: " + mostSyncing.get());
    } else {
      assertEquals(1, mostSyncing.get(), "syncs in flight at once");
    }
  }

  /** A file operation, run by an {@link Around}. */
  private interface IoOp {
    void run() throws java.io.IOException;
  }

  /** What a test does around a file operation of a compaction's child writer; it runs the operation itself. */
  private interface Around {
    Around DIRECT = IoOp::run;

    void run(IoOp op) throws java.io.IOException;
  }

  /** The local file system, with writes and syncs made on compaction child-writer threads going through {@code write} and {@code sync}. */
  private static io.iam.core.fs.Fs onChildWriters(Around write, Around sync) {
    return new io.iam.core.fs.ForwardingFs(io.iam.core.fs.LocalFs.INSTANCE) {
      @Override
      protected io.iam.core.fs.FsFile wrap(Path path, io.iam.core.fs.FsFile file) {
        return new io.iam.core.fs.ForwardingFsFile(file) {
          @Override
          public void write(long position, java.nio.ByteBuffer src) throws java.io.IOException {
            (childWriter() ? write : Around.DIRECT).run(() -> super.write(position, src));
          }

          @Override
          public void sync() throws java.io.IOException {
            (childWriter() ? sync : Around.DIRECT).run(super::sync);
          }
        };
      }
    };
  }

  /** Counts the operations in progress into {@code now}, keeps their most in {@code most}, and slows each down. */
  private static Around counted(java.util.concurrent.atomic.AtomicInteger now,
      java.util.concurrent.atomic.AtomicInteger most, long pauseMillis) {
    return op -> {
      most.accumulateAndGet(now.incrementAndGet(), Math::max);
      try {
        pause(pauseMillis);
        op.run();
      } finally {
        now.decrementAndGet();
      }
    };
  }

  private static boolean childWriter() {
    return Thread.currentThread().getName().startsWith("iam-child-writer-");
  }

  private static void pause(long millis) throws java.io.InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException();
    }
  }

  @Test
  void deletesVanishOnceMergedIntoTheLastLevel(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, options("lsm-merge", 1, "64KiB"))) {
      hashLoad(store, 9, 3000);
      long entries = store.verify();
      SplittableRandom random = new SplittableRandom(9);
      for (int i = 0; i < 3000; i++) {
        store.delete(key(random.nextLong(1_000_000_000L)));
        random.nextBytes(new byte[200]); // keep the key sequence of hashLoad
      }
      hashLoad(store, 11, 6000); // push the tombstones down to the leaves
      assertFalse(contents(store).isEmpty());
      long left = store.verify();
      assertTrue(left < entries + 6000 + 3000, "merges into the leaves dropped deleted records: " + left);
    }
  }
}
