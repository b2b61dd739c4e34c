package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.option.OptionValues;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import java.util.stream.Stream;

/**
 * Model-based test: seeded random sequences of put, delete, get, scan, snapshot reads, write
 * batches, settles and reopens, each checked against a TreeMap model at every step. Tiny
 * memtables and files make flushes and compactions happen all the time. A failure names the
 * seed and the step; {@code -Diam.model.ops=N} runs longer cases.
 */
@Timeout(300)
class StoreModelTest {

  private static final int OPS = Integer.getInteger("iam.model.ops", 100_000);

  /** Unsigned-byte order, as the store's default comparator. */
  private static TreeMap<byte[], byte[]> newModel() {
    return new TreeMap<>(Arrays::compareUnsigned);
  }

  /** Every tree the engine has; each model, crash, corruption and fault test runs on each. */
  static final List<String> TREES = List.of("leveled", "iam", "lsa", "lsm-merge", "lsbm", "minmax", "stack");

  /**
   * The trees built from bare files (no nodes): leveled, its LSbM mode, Min-Max (whose buckets
   * are level-0 files) and the stack (whose runs are).
   */
  static boolean leveledFiles(String tree) {
    return tree.equals("leveled") || tree.equals("lsbm") || tree.equals("minmax") || tree.equals("stack");
  }

  /** {@code @MethodSource} of every tree, for the other engine tests: {@link #trees()}. */
  static final String ALL_TREES = "io.iam.core.engine.StoreModelTest#trees";

  /**
   * {@code @MethodSource} of the trees whose flushes append sequences to existing node files
   * (iam and lsa; lsm-merge always merges into a new file): {@link #appendingTrees()}.
   */
  static final String APPENDING_TREES = "io.iam.core.engine.StoreModelTest#appendingTrees";

  /** {@code @MethodSource} of the node trees (every tree but leveled): {@link #nodeTrees()}. */
  static final String NODE_TREES = "io.iam.core.engine.StoreModelTest#nodeTrees";

  static Stream<String> trees() {
    return TREES.stream();
  }

  static Stream<String> nodeTrees() {
    return TREES.stream().filter(t -> !leveledFiles(t));
  }

  static Stream<String> appendingTrees() {
    return Stream.of("iam", "lsa");
  }

  /** The default options (memtables large enough that nothing flushes unless asked) on {@code tree}. */
  static OptionValues defaultOptions(String tree) {
    return with(StoreOptions.defaults(), Map.of("tree", tree));
  }

  /** {@code base} with the options in {@code changes} replaced. */
  static OptionValues with(OptionValues base, Map<String, String> changes) {
    Map<String, String> all = new java.util.HashMap<>(base.asStrings());
    all.putAll(changes);
    return StoreOptions.parse(all);
  }

  static OptionValues smallOptions(int threads) {
    return smallOptions("leveled", threads);
  }

  /**
   * Small budgets, so flushes, compactions, appends, splits and combines happen all the time: a
   * 64 KiB memtable (also a node tree's C_t), fan-out 4 so node trees grow several levels, and a
   * block cache of 256 KiB from which IAM chooses its mixed level; for Min-Max a cache of 400
   * entries evicting buckets of 40 (a 64 KiB memtable holds about 400 of the tests' entries) and
   * a maintenance sort once more than 6 buckets share a key. The manifest is replaced every 1 KiB,
   * so the model, crash and power-loss tests also cross manifest switches.
   */
  static OptionValues smallOptions(String tree, int threads) {
    return StoreOptions.parse(Map.ofEntries(
        Map.entry("tree", tree),
        Map.entry("fanout", "4"),
        Map.entry("memtable-size", "64KiB"),
        Map.entry("target-file-size", "64KiB"),
        Map.entry("level-base-size", "256KiB"),
        Map.entry("block-cache-size", "256KiB"),
        Map.entry("l0-compaction-trigger", "2"),
        Map.entry("minmax-cache", "400"),
        Map.entry("minmax-window", "40"),
        Map.entry("minmax-sort-overlap", "6"),
        Map.entry("stack-size-ratio", "3"),
        Map.entry("max-manifest-size", "1KiB"),
        Map.entry("background-threads", Integer.toString(threads))));
  }

  private record Snap(Snapshot snapshot, TreeMap<byte[], byte[]> model) {}

  static Stream<Arguments> treesAndSeeds() {
    return TREES.stream().flatMap(tree -> Stream.of(1L, 2L, 3L).map(seed -> Arguments.of(tree, seed)));
  }

  @ParameterizedTest(name = "tree={0}, seed {1}")
  @MethodSource("treesAndSeeds")
  void randomOperationsMatchTheModel(String tree, long seed, @TempDir Path dir) throws Exception {
    run(tree, seed, dir, 1);
  }

  @ParameterizedTest(name = "tree={0}, seed 4, 4 background threads")
  @MethodSource("trees")
  void randomOperationsMatchTheModelWithFourThreads(String tree, @TempDir Path dir) throws Exception {
    run(tree, 4, dir, 4);
  }

  private void run(String tree, long seed, Path dir, int threads) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    TreeMap<byte[], byte[]> model = newModel();
    List<Snap> snaps = new ArrayList<>();
    OptionValues options = smallOptions(tree, threads);
    IamStore store = IamStore.open(dir, options);
    long manifestRolls = 0; // summed over reopens, which start the count again
    try {
      for (int step = 0; step < OPS; step++) {
        String at = "tree=" + tree + " seed " + seed + " step " + step;
        int op = random.nextInt(100);
        if (op < 40) {
          byte[] k = key(random);
          byte[] v = value(random);
          store.put(k, v);
          model.put(k, v);
        } else if (op < 50) {
          byte[] k = key(random);
          store.delete(k);
          model.remove(k);
        } else if (op < 75) {
          byte[] k = key(random);
          byte[] expected = model.get(k);
          byte[] actual = store.get(k);
          if (expected == null) {
            assertNull(actual, at + ": get " + str(k));
          } else {
            assertArrayEquals(expected, actual, at + ": get " + str(k));
          }
        } else if (op < 80) {
          WriteBatch batch = randomBatch(random, 1 + random.nextInt(20), 4, () -> key(random), () -> value(random), model);
          store.write(batch, random.nextInt(10) == 0 ? WriteOptions.SYNC : WriteOptions.DEFAULT);
        } else if (op < 85) {
          scan(store, ReadOptions.DEFAULT, model, random, at);
        } else if (op < 88) {
          if (snaps.size() < 4) {
            snaps.add(new Snap(store.snapshot(), new TreeMap<>(model)));
          } else {
            snaps.remove(random.nextInt(snaps.size())).snapshot().close();
          }
        } else if (op < 96) {
          if (!snaps.isEmpty()) {
            Snap s = snaps.get(random.nextInt(snaps.size()));
            if (random.nextBoolean()) {
              byte[] k = key(random);
              byte[] expected = s.model().get(k);
              byte[] actual = store.get(k, ReadOptions.at(s.snapshot()));
              if (expected == null) {
                assertNull(actual, at + ": snapshot get " + str(k));
              } else {
                assertArrayEquals(expected, actual, at + ": snapshot get " + str(k));
              }
            } else {
              scan(store, ReadOptions.at(s.snapshot()), s.model(), random, at + " (snapshot)");
            }
          }
        } else if (op < 99) {
          if (random.nextInt(20) == 0) {
            store.flushAndSettle();
          }
        } else if (random.nextInt(10) == 0) {
          snaps.forEach(s -> s.snapshot().close());
          snaps.clear();
          manifestRolls += store.manifestRolls();
          store.close();
          store = IamStore.open(dir, options);
        }
      }
      store.flushAndSettle();
      fullCheck(store, model, "seed " + seed + " at the end");
      if (!leveledFiles(tree)) {
        Map<String, Number> p = store.properties();
        System.out.println("tree=" + tree + " seed " + seed + ":\n" + store.describe() + p);
        assertTrue(store.depth() >= 2, "the node tree grew levels: " + store.depth());
        assertTrue(p.get("node.moves").longValue() + p.get("node.merges").longValue() + p.get("node.appends").longValue() > 0);
      }
      if (tree.equals("minmax")) {
        Map<String, Number> p = store.properties();
        System.out.println("tree=minmax seed " + seed + ":\n" + store.describe());
        assertTrue(p.get("minmax.buckets-written").longValue() > 0 && p.get("minmax.sorts").longValue() > 0, p.toString());
        assertTrue(p.get("minmax.max-overlap").intValue() <= 6, "the sort keeps at most d buckets on a key: " + p);
        assertTrue(p.get("minmax.point-read-buckets").longValue() > 0);
      }
      if (tree.equals("stack")) { // the statistics start at the last reopen; the runs' flush ranges do not
        assertTrue(StoreTrees.stack(store).largestRunFlushes() >= 3, "tiering with T = 3 merged runs: " + store.describe());
      }
      assertTrue(store.verify() > 0);
      manifestRolls += store.manifestRolls();
      assertTrue(manifestRolls > 0, "tree=" + tree + ": the run never replaced its manifest");
      snaps.forEach(s -> s.snapshot().close());
      store.close();
      store = IamStore.open(dir, options);
      fullCheck(store, model, "seed " + seed + " after the last reopen");
      assertTrue(store.statistics().asMap().containsKey("write-amplification"));
    } finally {
      store.close();
    }
  }

  /** A scan from a random key (of the first 3000) checked against the model; also used by LsbmModelTest. */
  static void scan(IamStore store, ReadOptions opts, TreeMap<byte[], byte[]> model, SplittableRandom random, String at)
      throws java.io.IOException {
    byte[] from = key(random);
    int limit = 1 + random.nextInt(30);
    try (StoreIterator it = store.iterator(opts)) {
      it.seek(from);
      var expected = model.tailMap(from, true).entrySet().iterator();
      for (int i = 0; i < limit && expected.hasNext(); i++) {
        var e = expected.next();
        assertTrue(it.valid(), at + ": scan from " + str(from) + " ended early before " + str(e.getKey()));
        assertArrayEquals(e.getKey(), it.key(), at + ": scan key");
        assertArrayEquals(e.getValue(), it.value(), at + ": scan value of " + str(e.getKey()));
        it.next();
      }
      if (!expected.hasNext()) {
        assertTrue(!it.valid(), at + ": scan from " + str(from) + " returned extra key");
      }
    }
  }

  /** A batch of {@code n} random writes, one in {@code deleteOneIn} a delete, also applied to {@code model}. */
  static WriteBatch randomBatch(SplittableRandom random, int n, int deleteOneIn, java.util.function.Supplier<byte[]> keys,
      java.util.function.Supplier<byte[]> values, TreeMap<byte[], byte[]> model) {
    WriteBatch batch = new WriteBatch();
    for (int i = 0; i < n; i++) {
      byte[] k = keys.get();
      if (random.nextInt(deleteOneIn) == 0) {
        batch.delete(k);
        model.remove(k);
      } else {
        byte[] v = values.get();
        batch.put(k, v);
        model.put(k, v);
      }
    }
    return batch;
  }

  /** Asserts that a read returned {@code expected} (null: absent). */
  static void assertValue(byte[] expected, byte[] actual, String message) {
    if (expected == null) {
      assertNull(actual, message);
    } else {
      assertArrayEquals(expected, actual, message);
    }
  }

  static void fullCheck(IamStore store, TreeMap<byte[], byte[]> model, String at) throws Exception {
    try (StoreIterator it = store.iterator()) {
      it.seekToFirst();
      for (var e : model.entrySet()) {
        assertTrue(it.valid(), at + ": missing " + str(e.getKey()));
        assertArrayEquals(e.getKey(), it.key(), at);
        assertArrayEquals(e.getValue(), it.value(), at);
        it.next();
      }
      assertTrue(!it.valid(), at + ": extra keys in the store");
    }
    for (var e : model.entrySet()) {
      assertArrayEquals(e.getValue(), store.get(e.getKey()), at + ": get " + str(e.getKey()));
    }
    assertEquals(model.size(), TestStores.countKeys(store), at);
  }

  private static byte[] key(SplittableRandom random) {
    return String.format("key%05d", random.nextInt(3000)).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(SplittableRandom random) {
    byte[] v = new byte[random.nextInt(300)];
    random.nextBytes(v);
    return v;
  }

  private static String str(byte[] k) {
    return new String(k, StandardCharsets.UTF_8);
  }
}
