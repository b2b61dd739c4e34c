package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.option.OptionValues;
import io.iam.core.manifest.FileMeta;
import io.iam.core.tree.GearPicker;
import io.iam.core.manifest.StoreFiles;
import io.iam.core.manifest.BufferFile;
import io.iam.core.tree.lsbm.CompactionBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * tree=lsbm in the engine: buffered merges keep the merged files, the pace bounds each buffer
 * list, trims remove cold files and keep hot ones, reads through the buffer stay newest after
 * updates and deletes of buffered keys, and a restart keeps the buffer and the data.
 */
class LsbmStoreTest {

  static final int KEYS = 6000;

  /** The model tests' small budgets on tree=lsbm, no background trim (tests trim by hand), plus {@code extra}. */
  static OptionValues options(Map<String, String> extra) {
    Map<String, String> m = new HashMap<>(Map.of("lsbm-trim-interval-ms", "0"));
    m.putAll(extra);
    return StoreModelTest.with(StoreModelTest.smallOptions("lsbm", 1), m);
  }

  /**
   * {@link #options} with lsbm-levels=leveled: for the tests of the buffer's mechanics, which need
   * a buffer that still holds files after a load. With gear levels B_i′ goes as C_i′ drains, and a
   * load whose last round drained C_1′ by moves can leave the buffer empty.
   */
  static OptionValues leveledLayout(Map<String, String> extra) {
    Map<String, String> m = new HashMap<>(extra);
    m.put("lsbm-levels", "leveled");
    return options(m);
  }

  static byte[] k(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] v(int i, int version) {
    byte[] b = new byte[100];
    Arrays.fill(b, (byte) (i * 31 + version));
    b[0] = (byte) version;
    return b;
  }

  /** Puts every key once, in a shuffled order so compactions merge rather than move, then settles. */
  static TreeMap<byte[], byte[]> load(IamStore store, long seed) throws Exception {
    TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(seed));
    for (int i : order) {
      store.put(k(i), v(i, 0));
      model.put(k(i), v(i, 0));
    }
    store.flushAndSettle();
    return model;
  }

  static void checkAll(IamStore store, TreeMap<byte[], byte[]> model, String at) throws Exception {
    for (int i = 0; i < KEYS; i++) {
      StoreModelTest.assertValue(model.get(k(i)), store.get(k(i)), at + ": key " + i);
    }
  }

  private static Set<Long> bufferNumbers(IamStore store) {
    return StoreTrees.compactionBuffer(store).allFiles().stream().map(FileMeta::fileNumber).collect(Collectors.toSet());
  }

  @Test
  void bufferedMergesKeepTheMergedFiles(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, leveledLayout(Map.of()))) {
      TreeMap<byte[], byte[]> model = load(store, 1);
      CompactionBuffer buffer = StoreTrees.compactionBuffer(store);
      System.out.println(store.describe());
      assertFalse(buffer.isEmpty(), "compactions appended their inputs to the buffer: " + buffer);
      assertTrue(store.statistics().bufferAppends() > 0);
      Set<Long> inLevels = store.levels().stream().flatMap(List::stream).map(FileMeta::fileNumber).collect(Collectors.toSet());
      for (FileMeta f : buffer.allFiles()) {
        assertTrue(Files.exists(StoreFiles.table(dir, f.fileNumber())), "buffer file " + f + " is on disk");
        assertFalse(inLevels.contains(f.fileNumber()), "buffer file " + f + " left the levels");
      }
      checkAll(store, model, "after the load");
      assertTrue(store.statistics().bufferHits() > 0, "some reads were answered by the buffer");
      Map<String, Number> p = store.properties();
      assertTrue(p.get("buffer.hits").longValue() > 0);
      assertTrue(p.keySet().stream().anyMatch(key -> key.startsWith("buffer.1.")), p.toString());
      assertTrue(store.diskBytes() > store.levels().stream().flatMap(List::stream).mapToLong(FileMeta::fileSize).sum(),
          "disk bytes count the buffer");
      assertTrue(store.verify() > 0);
    }
  }

  @Test
  void updatesAndDeletesOfBufferedKeysAreSeenAtOnce(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, leveledLayout(Map.of("lsbm-freeze-shrink", "1")))) {
      TreeMap<byte[], byte[]> model = load(store, 2);
      checkAll(store, model, "after the load"); // serves and caches the buffered copies
      long hits = store.statistics().bufferHits();
      assertTrue(hits > 0);
      Random random = new Random(2);
      for (int round = 1; round <= 6; round++) {
        // change keys that sit in buffer files now: their buffered copies become stale
        List<BufferFile> buffered = new ArrayList<>();
        CompactionBuffer buffer = StoreTrees.compactionBuffer(store);
        for (int level = 1; level < buffer.numLevels(); level++) {
          buffered.addAll(buffer.files(level));
        }
        for (int n = 0; n < 400; n++) {
          int i = random.nextInt(KEYS);
          if (!buffered.isEmpty() && n % 2 == 0) {
            // a key inside a buffer file's range
            BufferFile b = buffered.get(random.nextInt(buffered.size()));
            int lo = Integer.parseInt(new String(b.lo(), StandardCharsets.UTF_8).substring(3));
            int hi = Integer.parseInt(new String(b.hi(), StandardCharsets.UTF_8).substring(3));
            i = lo + random.nextInt(hi - lo + 1);
          }
          if (random.nextInt(3) == 0) {
            store.delete(k(i));
            model.remove(k(i));
          } else {
            store.put(k(i), v(i, round));
            model.put(k(i), v(i, round));
          }
        }
        checkAll(store, model, "round " + round + " before flushing");
        for (int step = 0; step < 3; step++) {
          for (int n = 0; n < 800; n++) { // new keys push the changed ones down through the levels
            int i = KEYS + round * 10_000 + step * 1000 + n;
            store.put(k(i), v(i, round));
            model.put(k(i), v(i, round));
          }
          checkAll(store, model, "round " + round + " step " + step);
        }
        store.flushAndSettle();
        checkAll(store, model, "round " + round + " settled");
        StoreModelTest.fullCheck(store, model, "round " + round + " scan");
      }
      assertTrue(store.statistics().bufferHits() > hits, "reads kept using the buffer");
    }
  }

  /**
   * The point of the buffer (the paper's Fig. 3): hot keys read before compactions rewrite their
   * files are read after them from the blocks already cached. The hot keys are not written;
   * writes to every other key make the merges rewrite the files the hot keys live in. On
   * tree=leveled the re-read misses on the new files; on tree=lsbm it reads the merged files.
   * (Which merges run varies from run to run; the hot keys are spread over the key space so that
   * every merge rewrites some of their files.)
   */
  @ParameterizedTest(name = "lsbm-levels={0}")
  @ValueSource(strings = {"gear", "leveled"})
  void hotReadsKeepHittingTheCacheThroughCompactions(String layout, @TempDir Path dir) throws Exception {
    Map<String, Long> misses = new HashMap<>();
    for (String tree : List.of("leveled", "lsbm")) {
      OptionValues options = StoreModelTest.with(StoreModelTest.smallOptions(tree, 1), Map.of("lsbm-trim-interval-ms",
          "0", "lsbm-freeze-shrink", "1", "lsbm-buffer-fraction", "10", "block-cache-size", "64MiB", "lsbm-levels", layout));
      try (IamStore store = IamStore.open(dir.resolve(tree), options)) {
        TreeMap<byte[], byte[]> model = load(store, 8);
        // the hot keys are every fourth key: every merge rewrites files that hold some of them
        for (int i = 0; i < KEYS; i += 4) {
          store.get(k(i)); // caches the hot blocks
        }
        long compactions = store.statistics().counters().compactions.sum();
        for (int round = 1; round <= 3; round++) {
          for (int i = 0; i < KEYS; i++) {
            if (i % 4 != 0) {
              store.put(k(i), v(i, round));
              model.put(k(i), v(i, round));
            }
          }
        }
        store.flushAndSettle();
        assertTrue(store.statistics().counters().compactions.sum() > compactions + 5, "the writes were compacted: " + store.describe());
        long before = store.blockCache().misses();
        for (int i = 0; i < KEYS; i += 4) {
          StoreModelTest.assertValue(model.get(k(i)), store.get(k(i)), tree + ": hot key " + i);
        }
        misses.put(tree, store.blockCache().misses() - before);
        checkAll(store, model, tree + " after the hot reads");
      }
    }
    System.out.println("block-cache misses re-reading the hot keys: " + misses);
    assertTrue(misses.get("leveled") > 20, "the merges rewrote the hot files of tree=leveled: " + misses);
    // With gear levels B_i′ goes as C_i′ drains, as in the paper, and a hot key whose cached copy
    // went with it is read once from the file that carried it down (f_a, kept in B_i+1): fewer
    // misses than leveled still, but not 5× fewer (gear 52 to 128 against leveled 157 to 179 in
    // four runs on 2026-11-21)
    int factor = layout.equals("gear") ? 1 : 5;
    assertTrue(misses.get("lsbm") * factor < misses.get("leveled"), "tree=lsbm read the cached merged files: " + misses);
  }

  /**
   * Scans read a level's file from its sources when the buffer still has them all (Algorithm 4),
   * and must still see the newest version: keys inside buffer files' ranges are updated and
   * deleted (in the memtable, then flushed and merged down), and every scan, from the start and
   * from random seeks, is compared with the model.
   */
  @ParameterizedTest(name = "lsbm-levels={0}")
  @ValueSource(strings = {"gear", "leveled"})
  void scansThroughTheBufferSeeTheNewestVersions(String layout, @TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, options(Map.of("lsbm-freeze-shrink", "1", "lsbm-buffer-fraction", "10",
        "lsbm-levels", layout)))) {
      TreeMap<byte[], byte[]> model = load(store, 9);
      Random random = new Random(9);
      for (int round = 1; round <= 4; round++) {
        long scans = store.properties().get("buffer.scans").longValue();
        StoreModelTest.fullCheck(store, model, "round " + round + " before");
        // gear levels: B_1′ holds level-0 files over the whole key space and goes as C_1′ drains,
        // so a round may find no file whose sources are all left; by the last round some are
        if (layout.equals("leveled") || round == 4) {
          assertTrue(store.properties().get("buffer.scans").longValue() > (layout.equals("leveled") ? scans : 0),
              "the scan read some files from their sources: " + store.describe());
        }
        for (int n = 0; n < 1500; n++) {
          int i = random.nextInt(KEYS);
          if (random.nextInt(4) == 0) {
            store.delete(k(i));
            model.remove(k(i));
          } else {
            store.put(k(i), v(i, round));
            model.put(k(i), v(i, round));
          }
          if (n % 500 == 0) {
            seekAndCompare(store, model, random, "round " + round + " write " + n);
          }
        }
        StoreModelTest.fullCheck(store, model, "round " + round + " unflushed");
        store.flushAndSettle();
        for (int s = 0; s < 20; s++) {
          seekAndCompare(store, model, random, "round " + round + " settled");
        }
      }
    }
  }

  private static void seekAndCompare(IamStore store, TreeMap<byte[], byte[]> model, Random random, String at)
      throws Exception {
    byte[] from = k(random.nextInt(KEYS));
    try (StoreIterator it = store.iterator()) {
      it.seek(from);
      int steps = 0;
      for (var e : model.tailMap(from, true).entrySet()) {
        if (steps++ == 200) {
          break;
        }
        assertTrue(it.valid(), at + ": missing " + new String(e.getKey(), StandardCharsets.UTF_8));
        assertArrayEquals(e.getKey(), it.key(), at);
        assertArrayEquals(e.getValue(), it.value(), at);
        it.next();
      }
    }
  }

  @Test
  void thePaceKeepsEachBufferListUnderItsCap(@TempDir Path dir) throws Exception {
    OptionValues options = options(Map.of("lsbm-buffer-fraction", "0.5", "lsbm-freeze-shrink", "1"));
    try (IamStore store = IamStore.open(dir, options)) {
      TreeMap<byte[], byte[]> model = load(store, 3);
      CompactionBuffer buffer = StoreTrees.compactionBuffer(store);
      for (int level = 1; level < buffer.numLevels(); level++) {
        long cap = budget(options, GearPicker.logical(level)) / 2; // each half of a gear level has the level's cap at most
        assertTrue(buffer.bytes(level) <= cap, "B" + level + " holds " + buffer.bytes(level) + " > cap " + cap);
      }
      assertTrue(store.statistics().bufferPaced() + store.statistics().bufferRetired() > 0,
          "files left the buffer at the pace: " + store.describe());
      checkAll(store, model, "paced");
    }
  }

  /** S_i, the byte budget of logical level {@code i} ≥ 1. */
  private static long budget(OptionValues options, int i) {
    long b = options.get(StoreOptions.LEVEL_BASE_SIZE);
    for (int j = 1; j < i; j++) {
      b *= options.get(StoreOptions.LEVEL_SIZE_RATIO);
    }
    return b;
  }

  /**
   * With lsbm-levels=gear (the default), C_i (level 2i − 1) becomes C_i′ (level 2i) by moves
   * alone, and once the store settles every level but the last holds less than S_i in its two
   * halves together: C_i′ drained as C_i filled. The leveled layout of the same data would keep up
   * to 10 × S_1 in level 2.
   */
  @Test
  void gearLevelsKeepEachLevelsTwoHalvesInStep(@TempDir Path dir) throws Exception {
    OptionValues options = options(Map.of());
    TreeMap<byte[], byte[]> model;
    List<List<Long>> buffered;
    try (IamStore store = IamStore.open(dir, options)) {
      model = load(store, 4);
      Random random = new Random(4);
      for (int n = 0; n < KEYS; n++) { // updates turn the levels over again
        int i = random.nextInt(KEYS);
        store.put(k(i), v(i, 1));
        model.put(k(i), v(i, 1));
      }
      store.flushAndSettle();
      List<List<FileMeta>> levels = store.levels();
      int last = GearPicker.lastLogical(levels.size());
      assertTrue(last >= 2, "levels " + levels.size());
      for (int i = 1; i < last; i++) {
        long in = levels.get(GearPicker.in(i)).stream().mapToLong(FileMeta::fileSize).sum();
        long out = levels.get(GearPicker.out(i)).stream().mapToLong(FileMeta::fileSize).sum();
        assertTrue(in + out < budget(options, i), "level " + i + ": C " + in + " + C' " + out + " >= S " + budget(options, i)
            + "\n" + store.describe());
      }
      Statistics stats = store.statistics();
      assertTrue(stats.movedBytes(GearPicker.out(1)) > 0, "C_1 became C_1' by moves: " + store.describe());
      assertTrue(store.describe().contains("gear levels: C1 = L1, C1' = L2; C2 = L3, C2' = L4; C3 = L5"), store.describe());
      assertEquals(0, stats.compactionBytesWritten(GearPicker.out(1)), "nothing is merged into C_1'");
      assertTrue(stats.compactionBytesWritten(GearPicker.in(2)) > 0, "C_1' was merged into C_2");
      assertTrue(levels.get(levels.size() - 1).isEmpty(), "nothing below the last level's C_n");
      checkAll(store, model, "after the updates");
      buffered = bufferLists(store);
    }
    try (IamStore store = IamStore.open(dir, options)) {
      assertEquals(buffered, bufferLists(store), "a restart keeps each list, B_i and B_i' alike");
      checkAll(store, model, "after a restart");
    }
  }

  private static List<List<Long>> bufferLists(IamStore store) {
    CompactionBuffer b = StoreTrees.compactionBuffer(store);
    List<List<Long>> out = new ArrayList<>();
    for (int level = 0; level < b.numLevels(); level++) {
      out.add(b.files(level).stream().map(BufferFile::fileNumber).toList());
    }
    return out;
  }

  @Test
  void aTrimRemovesColdFilesAfterSparingThemOnce(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, leveledLayout(Map.of("lsbm-freeze-shrink", "1")))) {
      TreeMap<byte[], byte[]> model = load(store, 4);
      Set<Long> before = bufferNumbers(store);
      long retiredBefore = store.statistics().bufferRetired();
      assertFalse(before.isEmpty());
      assertEquals(0, store.runMaintenance(), "the first trim spares files appended since the last one");
      // nothing was read, every buffer file is cold; a file read through its sources goes once they have
      int removed = store.runMaintenance();
      assertTrue(removed > 0, "the cold files without sources go first");
      for (int i = 0; i < 10 && !StoreTrees.compactionBuffer(store).isEmpty(); i++) {
        removed += store.runMaintenance();
      }
      assertTrue(StoreTrees.compactionBuffer(store).isEmpty(), store.describe());
      assertEquals(removed, store.statistics().bufferTrimmed());
      assertEquals(before.size(), removed + store.statistics().bufferRetired() - retiredBefore,
          "every buffer file was trimmed, or retired once nothing referred to it");
      store.flushAndSettle(); // waits for the purge
      for (long n : before) {
        assertFalse(Files.exists(StoreFiles.table(dir, n)), "trimmed buffer file " + n + " was deleted");
      }
      checkAll(store, model, "after the trim");
    }
  }

  @Test
  void aTrimKeepsFilesWhoseBlocksAreCached(@TempDir Path dir) throws Exception {
    OptionValues options = leveledLayout(Map.of("lsbm-freeze-shrink", "1", "block-cache-size", "16MiB", "lsbm-trim-threshold", "0.3"));
    try (IamStore store = IamStore.open(dir, options)) {
      TreeMap<byte[], byte[]> model = load(store, 5);
      for (int i = 0; i < KEYS; i++) { // a second pass merges level 1 into a full level 2: B_2 fills
        store.put(k(i), v(i, 1));
        model.put(k(i), v(i, 1));
      }
      store.flushAndSettle();
      store.runMaintenance(); // spares everything
      for (int pass = 0; pass < 2; pass++) {
        checkAll(store, model, "hot pass " + pass); // every buffered key is read: the usable buffer files are cached
      }
      // a file read through sources the trim removed is judged by its own blocks at the next trim
      for (int i = 0; i < 10 && store.runMaintenance() > 0; i++) {
        checkAll(store, model, "trim " + i);
      }
      assertFalse(StoreTrees.compactionBuffer(store).isEmpty(), "hot buffer files survive the trim: " + store.describe());
      for (int level = 1; level < StoreTrees.compactionBuffer(store).numLevels(); level++) {
        for (BufferFile b : StoreTrees.compactionBuffer(store).files(level)) {
          assertTrue(store.blockCache().residentBlocks(b.fileNumber()) > 0
              || !StoreTrees.compactionBuffer(store).sources(b.fileNumber()).isEmpty(),
              "a kept file has cached blocks, or is read through sources still kept: " + b);
        }
      }
      checkAll(store, model, "after the trim");
    }
  }

  @Test
  void aRestartKeepsTheBufferAndTheData(@TempDir Path dir) throws Exception {
    OptionValues options = leveledLayout(Map.of("lsbm-freeze-shrink", "1"));
    TreeMap<byte[], byte[]> model;
    Set<Long> buffered;
    try (IamStore store = IamStore.open(dir, options)) {
      model = load(store, 6);
      for (int i = 0; i < KEYS; i += 3) { // newer versions above buffered ones
        store.put(k(i), v(i, 1));
        model.put(k(i), v(i, 1));
      }
      store.flushAndSettle();
      buffered = bufferNumbers(store);
      assertFalse(buffered.isEmpty());
    }
    for (int reopen = 0; reopen < 2; reopen++) { // the second replays the first reopen's new manifest
      try (IamStore store = IamStore.open(dir, options)) {
        assertEquals(buffered, bufferNumbers(store), "the buffer is recovered (reopen " + reopen + ")");
        for (long n : buffered) {
          assertTrue(Files.exists(StoreFiles.table(dir, n)), "buffer file " + n + " is still on disk");
        }
        checkAll(store, model, "after reopening");
        assertTrue(store.statistics().bufferHits() > 0, "reads use the recovered buffer");
        StoreModelTest.fullCheck(store, model, "after reopening");
        assertTrue(store.verify() > 0);
      }
    }
  }

  @Test
  void snapshotReadsBypassTheBuffer(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, leveledLayout(Map.of("lsbm-freeze-shrink", "1")))) {
      TreeMap<byte[], byte[]> model = load(store, 7);
      try (Snapshot s = store.snapshot()) {
        for (int i = 0; i < KEYS; i += 2) {
          store.put(k(i), v(i, 9));
        }
        store.flushAndSettle();
        for (int i = 0; i < KEYS; i++) {
          assertArrayEquals(model.get(k(i)), store.get(k(i), ReadOptions.at(s)), "snapshot read of key " + i);
          assertArrayEquals(i % 2 == 0 ? v(i, 9) : v(i, 0), store.get(k(i)), "latest read of key " + i);
        }
      }
    }
  }
}
