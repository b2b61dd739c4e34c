package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.tree.StoreFiles;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flipping bytes in the log, a table file or the manifest ends in an error that names the file and
 * an offset, or (for the log in salvage mode) in a recovery that keeps every intact batch; never
 * in wrong data.
 */
@Timeout(120)
class CorruptionTest {

  private static byte[] k(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] v(int i) {
    return ("value-" + i + "-" + "x".repeat(100)).getBytes(StandardCharsets.UTF_8);
  }

  private static void flip(Path file, long offset) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x5A);
    }
  }

  private static List<Path> files(Path dir, String suffixOrPrefix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffixOrPrefix)
          || p.getFileName().toString().startsWith(suffixOrPrefix)).sorted().toList();
    }
  }

  /** Writes n keys and closes without flushing, so they live only in the log. */
  private static void writeLogOnly(Path dir, int n) throws IOException {
    try (IamStore store = IamStore.open(dir)) {
      for (int i = 0; i < n; i++) {
        store.put(k(i), v(i));
      }
    }
  }

  @Test
  void corruptLogBeforeItsTailIsAnErrorNamingFileAndOffset(@TempDir Path dir) throws Exception {
    writeLogOnly(dir, 2000);
    Path log = files(dir, ".log").get(0);
    flip(log, 100);
    IOException e = assertThrows(IOException.class, () -> IamStore.open(dir));
    assertTrue(e.getMessage().contains(log.getFileName().toString()), e.getMessage());
    assertTrue(e.getMessage().matches("(?s).*offset.*\\d+.*"), e.getMessage());
  }

  @Test
  void salvageModeKeepsEveryIntactBatchAndReturnsNoWrongValue(@TempDir Path dir) throws Exception {
    writeLogOnly(dir, 2000);
    flip(files(dir, ".log").get(0), 100);
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(Map.of("wal-recovery", "skip-corrupted-records")))) {
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

  @Test
  void tornLogTailIsTruncatedAndEverythingBeforeItSurvives(@TempDir Path dir) throws Exception {
    writeLogOnly(dir, 500);
    Path log = files(dir, ".log").get(0);
    long size = Files.size(log);
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
      f.setLength(size - 37); // cut into the last record, as a crash mid-write would
    }
    try (IamStore store = IamStore.open(dir)) {
      for (int i = 0; i < 499; i++) {
        assertArrayEquals(v(i), store.get(k(i)), "key " + i);
      }
      assertNull(store.get(k(499)), "the torn last write must be gone, not half there");
    }
  }

  @Test
  void corruptTableIsAnErrorNamingTheFile(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir)) {
      for (int i = 0; i < 5000; i++) {
        store.put(k(i), v(i));
      }
      store.flushAndSettle();
    }
    Path table = files(dir, ".mst").get(0);
    flip(table, 2000); // inside the first data block
    try (IamStore store = IamStore.open(dir)) {
      for (int i = 0; i < 5000; i++) {
        try {
          byte[] got = store.get(k(i));
          if (got != null) {
            assertArrayEquals(v(i), got, "a corrupt table returned a wrong value for key " + i);
          }
        } catch (IOException e) {
          assertTrue(e.getMessage().contains(table.getFileName().toString()), e.getMessage());
        }
      }
      IOException e = assertThrows(IOException.class, store::verify);
      assertTrue(e.getMessage().contains(table.getFileName().toString()) && e.getMessage().contains("offset"), e.getMessage());
      UncheckedIOException scan = assertThrows(UncheckedIOException.class, () -> {
        try (StoreIterator it = store.iterator()) {
          for (it.seekToFirst(); it.valid(); it.next()) {
            // read everything
          }
        }
      });
      assertTrue(scan.getMessage().contains(table.getFileName().toString()), scan.getMessage());
    }
  }

  @Test
  void corruptManifestIsAnErrorNamingIt(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir)) {
      for (int i = 0; i < 3000; i++) {
        store.put(k(i), v(i));
      }
      store.flushAndSettle();
    }
    Path manifest = files(dir, "MANIFEST-").get(0);
    flip(manifest, 10);
    IOException e = assertThrows(IOException.class, () -> IamStore.open(dir));
    assertTrue(e.getMessage().contains(manifest.getFileName().toString()), e.getMessage());
  }

  @Test
  void aDirectoryThatIsNotAStoreIsRefusedAndLeftAlone(@TempDir Path dir) throws Exception {
    Path notes = dir.resolve("notes.txt");
    Files.writeString(notes, "mine");
    IOException e = assertThrows(IOException.class, () -> IamStore.open(dir));
    assertTrue(e.getMessage().contains("not an IAM store"), e.getMessage());
    try (Stream<Path> s = Files.list(dir)) {
      assertArrayEquals(new Object[] {notes}, s.toArray(), "the directory was touched");
    }
  }

  @Test
  void aStoreOpenTwiceIsRefusedByItsLock(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir)) {
      IOException e = assertThrows(IOException.class, () -> IamStore.open(dir));
      assertTrue(e.getMessage().contains("in use"), e.getMessage());
      assertTrue(Files.exists(dir.resolve(StoreFiles.LOCK)));
    }
  }

  @Test
  void badInputGetsAClearError(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(Map.of("max-key-size", "16", "max-value-size", "100")))) {
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
