package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.key.InternalKey;
import io.iam.core.option.OptionValues;
import io.iam.core.table.MSTableReader;
import io.iam.core.table.SequenceHandle;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.NodeMeta;
import io.iam.core.manifest.StoreFiles;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Flipping bytes in the log, a table file or the manifest ends in an error that names the file and
 * an offset, or (for the log in salvage mode) in a recovery that keeps every intact batch; never
 * in wrong data. Every case runs on every tree; node trees add a damaged appended sequence, and
 * every tree refuses a store made with another.
 */
@Timeout(120)
class CorruptionTest {

  private static byte[] k(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] v(int i) {
    return ("value-" + i + "-" + "x".repeat(100)).getBytes(StandardCharsets.UTF_8);
  }

  private static List<Path> files(Path dir, String suffixOrPrefix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffixOrPrefix)
          || p.getFileName().toString().startsWith(suffixOrPrefix)).sorted().toList();
    }
  }

  /** Writes n keys and closes without flushing, so they live only in the log. */
  private static void writeLogOnly(Path dir, String tree, int n) throws IOException {
    try (IamStore store = IamStore.open(dir, StoreModelTest.defaultOptions(tree))) {
      for (int i = 0; i < n; i++) {
        store.put(k(i), v(i));
      }
    }
  }

  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void corruptLogBeforeItsTailIsAnErrorNamingFileAndOffset(String tree, @TempDir Path dir) throws Exception {
    writeLogOnly(dir, tree, 2000);
    Path log = files(dir, ".log").get(0);
    TestStores.flip(log, 100);
    IOException e = assertThrows(IOException.class, () -> IamStore.open(dir, StoreModelTest.defaultOptions(tree)));
    assertTrue(e.getMessage().contains(log.getFileName().toString()), e.getMessage());
    assertTrue(e.getMessage().matches("(?s).*offset.*\\d+.*"), e.getMessage());
  }

  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void salvageModeKeepsEveryIntactBatchAndReturnsNoWrongValue(String tree, @TempDir Path dir) throws Exception {
    writeLogOnly(dir, tree, 2000);
    TestStores.flip(files(dir, ".log").get(0), 100);
    OptionValues salvage = StoreModelTest.with(StoreModelTest.defaultOptions(tree), Map.of("wal-recovery", "skip-corrupted-records"));
    try (IamStore store = IamStore.open(dir, salvage)) {
      int present = 0;
      for (int i = 0; i < 2000; i++) {
        byte[] got = store.get(k(i));
        if (got != null) {
          assertArrayEquals(v(i), got, "key " + i);
          present++;
        }
      }
      assertTrue(present > 1500 && present < 2000, "salvaged " + present + " of 2000");
    }
  }

  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void tornLogTailIsTruncatedAndEverythingBeforeItSurvives(String tree, @TempDir Path dir) throws Exception {
    writeLogOnly(dir, tree, 500);
    Path log = files(dir, ".log").get(0);
    long size = Files.size(log);
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
      f.setLength(size - 37); // cut into the last record, as a crash mid-write would
    }
    try (IamStore store = IamStore.open(dir, StoreModelTest.defaultOptions(tree))) {
      for (int i = 0; i < 499; i++) {
        assertArrayEquals(v(i), store.get(k(i)), "key " + i);
      }
      assertNull(store.get(k(499)), "the torn last write must be gone, not half there");
    }
  }

  /**
   * One flush of 5,000 keys makes one table: a level-0 file of a leveled tree, a level-1 node file
   * of a node tree (a capacity file; its data starts at offset 0 all the same), one bucket of
   * Min-Max with a cache and window of 5,000 entries (the 5,000th entry fills the cache, and its
   * only window is evicted).
   */
  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void corruptTableIsAnErrorNamingTheFile(String tree, @TempDir Path dir) throws Exception {
    OptionValues options = StoreModelTest.with(StoreModelTest.defaultOptions(tree),
        Map.of("minmax-cache", "5000", "minmax-window", "5000"));
    List<FileMeta> live;
    try (IamStore store = IamStore.open(dir, options)) {
      for (int i = 0; i < 5000; i++) {
        store.put(k(i), v(i));
      }
      store.flushAndSettle();
      live = store.levels().stream().flatMap(List::stream).toList();
    }
    assertEquals(1, live.size(), "one flush, one table: " + live);
    Path table = StoreFiles.table(dir, live.get(0).fileNumber());
    TestStores.flip(table, 2000); // inside the first data block
    try (IamStore store = IamStore.open(dir, options)) {
      assertCorruptionIsReported(store, table, i -> v(i), 5000, null);
    }
  }

  /**
   * Reads every key: each read returns the right value or an IOException naming {@code table};
   * then verify and a full scan must fail naming it. If {@code mustFail} is not null, reading that
   * key must fail.
   */
  private static void assertCorruptionIsReported(IamStore store, Path table, IntFunction<byte[]> value,
      int keys, byte[] mustFail) throws IOException {
    String name = table.getFileName().toString();
    for (int i = 0; i < keys; i++) {
      try {
        byte[] got = store.get(k(i));
        if (got != null) {
          assertArrayEquals(value.apply(i), got, "a corrupt table returned a wrong value for key " + i);
        }
      } catch (IOException e) {
        assertTrue(e.getMessage().contains(name), e.getMessage());
      }
    }
    if (mustFail != null) {
      IOException e = assertThrows(IOException.class, () -> store.get(mustFail),
          "reading " + new String(mustFail, StandardCharsets.UTF_8) + " from the damaged block did not fail");
      assertTrue(e.getMessage().contains(name), e.getMessage());
    }
    IOException e = assertThrows(IOException.class, store::verify);
    assertTrue(e.getMessage().contains(name) && e.getMessage().contains("offset"), e.getMessage());
    UncheckedIOException scan = assertThrows(UncheckedIOException.class, () -> {
      try (StoreIterator it = store.iterator()) {
        for (it.seekToFirst(); it.valid(); it.next()) {
          // read everything
        }
      }
    });
    assertTrue(scan.getMessage().contains(name), scan.getMessage());
  }

  /**
   * A flipped byte in the first data block of the newest sequence appended to a level-1 node's
   * file: the sequence holds the newest versions of its keys, so a read must fail naming the file
   * rather than fall back to an older sequence's value.
   */
  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.APPENDING_TREES)
  void corruptBlockInTheNewestAppendedSequenceIsAnErrorNamingTheFile(String tree, @TempDir Path dir) throws Exception {
    OptionValues options = StoreModelTest.smallOptions(tree, 1);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
    NodeMeta node;
    try (IamStore store = IamStore.open(dir, options)) {
      NodeMeta roomy = TestStores.settledTree(store, model);
      TestStores.overwrite(store, model, roomy, "appended");
      store.flushAndSettle();
      node = TestStores.holding(store, roomy.file().fileNumber());
      assertTrue(node != null && node.sequences() > roomy.sequences(), "tree=" + tree + ": no append to " + roomy
          + ":\n" + store.describe());
    }
    long file = node.file().fileNumber();
    Path table = StoreFiles.table(dir, file);
    byte[] firstKey;
    SequenceHandle newest;
    try (MSTableReader r = TestStores.openAll(dir, file)) {
      assertEquals(node.sequences(), r.sequenceCount());
      newest = r.sequences().get(r.sequenceCount() - 1);
      firstKey = InternalKey.userKey(newest.smallest());
    }
    assertTrue(newest.index() > 0 && newest.dataLength() > 200, "tree=" + tree + ": " + newest);
    TestStores.flip(table, newest.dataStart() + 100);
    byte[][] values = model.values().toArray(new byte[0][]);
    assertEquals(1500, values.length);
    try (IamStore store = IamStore.open(dir, options)) {
      assertCorruptionIsReported(store, table, i -> values[i], values.length, firstKey);
    }
  }

  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void corruptManifestIsAnErrorNamingIt(String tree, @TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, StoreModelTest.defaultOptions(tree))) {
      for (int i = 0; i < 3000; i++) {
        store.put(k(i), v(i));
      }
      store.flushAndSettle();
    }
    Path manifest = files(dir, "MANIFEST-").get(0);
    TestStores.flip(manifest, 10);
    IOException e = assertThrows(IOException.class, () -> IamStore.open(dir, StoreModelTest.defaultOptions(tree)));
    assertTrue(e.getMessage().contains(manifest.getFileName().toString()), e.getMessage());
  }

  static Stream<Arguments> treePairs() {
    return StoreModelTest.trees().flatMap(created -> StoreModelTest.trees().filter(other -> !other.equals(created))
        .map(other -> Arguments.of(created, other)));
  }

  @ParameterizedTest(name = "created with tree={0}, opened with tree={1}")
  @MethodSource("treePairs")
  void aStoreCreatedWithOneTreeRefusesToOpenWithAnother(String created, String other, @TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, StoreModelTest.smallOptions(created, 1))) {
      for (int i = 0; i < 1000; i++) {
        store.put(k(i), v(i));
      }
      store.flushAndSettle();
    }
    IOException e = assertThrows(IOException.class, () -> IamStore.open(dir, StoreModelTest.smallOptions(other, 1)));
    assertTrue(e.getMessage().contains("was created with tree=" + created)
        && e.getMessage().contains("cannot be opened with tree=" + other), e.getMessage());
    try (IamStore store = IamStore.open(dir, StoreModelTest.smallOptions(created, 1))) {
      assertEquals(created, StoreOptions.TREE.type().format(store.tree()));
      for (int i = 0; i < 1000; i++) {
        assertArrayEquals(v(i), store.get(k(i)), "the refused open damaged key " + i);
      }
      assertTrue(store.verify() > 0);
    }
  }

  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void aDirectoryThatIsNotAStoreIsRefusedAndLeftAlone(String tree, @TempDir Path dir) throws Exception {
    Path notes = dir.resolve("notes.txt");
    Files.writeString(notes, "mine");
    IOException e = assertThrows(IOException.class, () -> IamStore.open(dir, StoreModelTest.defaultOptions(tree)));
    assertTrue(e.getMessage().contains("not an IAM store"), e.getMessage());
    try (Stream<Path> s = Files.list(dir)) {
      assertArrayEquals(new Object[] {notes}, s.toArray(), "the directory was touched");
    }
  }

  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void aStoreOpenTwiceIsRefusedByItsLock(String tree, @TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, StoreModelTest.defaultOptions(tree))) {
      IOException e = assertThrows(IOException.class, () -> IamStore.open(dir, StoreModelTest.defaultOptions(tree)));
      assertTrue(e.getMessage().contains("in use"), e.getMessage());
      assertTrue(Files.exists(dir.resolve(StoreFiles.LOCK)));
    }
  }

  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void badInputGetsAClearError(String tree, @TempDir Path dir) throws Exception {
    OptionValues limits = StoreModelTest.with(StoreModelTest.defaultOptions(tree), Map.of("max-key-size", "16", "max-value-size", "100"));
    try (IamStore store = IamStore.open(dir, limits)) {
      IllegalArgumentException big = assertThrows(IllegalArgumentException.class, () -> store.put(new byte[17], new byte[1]));
      assertTrue(big.getMessage().contains("max-key-size=16"), big.getMessage());
      IllegalArgumentException value = assertThrows(IllegalArgumentException.class, () -> store.put(new byte[1], new byte[101]));
      assertTrue(value.getMessage().contains("max-value-size=100"), value.getMessage());
      assertThrows(NullPointerException.class, () -> store.put(null, new byte[1]));
      assertThrows(NullPointerException.class, () -> store.put(new byte[1], null));
    }
    var invalid = assertThrows(io.iam.core.option.InvalidOptionsException.class,
        () -> StoreOptions.parse(Map.of("memtable-size", "1", "tree", "btree", "colour", "red")));
    assertTrue(invalid.problems().size() == 3, invalid.getMessage());
  }
}
