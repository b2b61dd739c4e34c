package io.iam.core.table;

import static io.iam.core.table.TableTestData.CMP;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.LocalFs;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage anywhere is reported as {@link TableCorruptionException} naming the file and the offset of
 * the bad block or footer; a damaged table never yields a wrong key or value.
 */
class MSTableCorruptionTest {

  @TempDir
  static Path dir;

  private static TableTestData data;
  private static Path pristine;
  private static SequenceHandle handle;
  private static long filterOffset;
  private static long block3;
  private static int copies;

  @BeforeAll
  static void writeTable() throws IOException {
    data = TableTestData.random(5, 5_000, 1, 0, 100);
    pristine = dir.resolve("pristine.mst");
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, pristine, 5, 0, TableOptions.DEFAULT, CMP)) {
      handle = data.writeTo(w);
    }
    try (MSTableReader r = open(pristine)) {
      filterOffset = r.sequence(0).filterOffset();
      block3 = r.sequence(0).blockOffset(3);
    }
  }

  private static MSTableReader open(Path f) throws IOException {
    return MSTableReader.open(LocalFs.INSTANCE, f, 5, new NoCacheForTests(), TableOptions.DEFAULT, CMP);
  }

  /** A copy of the pristine file with the byte at {@code offset} flipped. */
  private static Path flipped(long offset) throws IOException {
    Path f = dir.resolve("copy-" + (copies++) + ".mst");
    Files.copy(pristine, f, StandardCopyOption.REPLACE_EXISTING);
    flip(f, offset);
    return f;
  }

  private static void flip(Path f, long offset) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      raf.seek(offset);
      int b = raf.read();
      raf.seek(offset);
      raf.write(b ^ 0x5A);
    }
  }

  private static void assertNamesFileAndOffset(TableCorruptionException e, Path f, long offset) {
    assertTrue(e.getMessage().contains(f.getFileName().toString()), e.getMessage());
    assertTrue(e.getMessage().contains("offset " + offset), e.getMessage());
    assertEquals(f, e.file());
    assertEquals(offset, e.offset());
  }

  @Test
  void flippedDataByteFailsTheReadsOfThatBlockOnly() throws IOException {
    Path f = flipped(block3 + 10);
    try (MSTableReader r = open(f)) {
      SequenceReader s = r.sequence(0);
      int inBlock3 = -1;
      int corrupt = 0;
      for (int i = 0; i < data.size(); i++) {
        try {
          Entry e = s.seek(data.keys.get(i));
          assertArrayEquals(data.keys.get(i), e.key());
          assertArrayEquals(data.values.get(i), e.value());
        } catch (TableCorruptionException e) {
          assertNamesFileAndOffset(e, f, block3);
          inBlock3 = inBlock3 < 0 ? i : inBlock3;
          corrupt++;
        }
      }
      assertTrue(corrupt > 0 && corrupt < data.size() / 10, "only the keys of one block fail: " + corrupt);

      // Iteration returns the good prefix exactly, then stops with the error.
      TableIterator it = s.iterator();
      it.seekToFirst();
      int returned = 0;
      TableCorruptionException e = null;
      try {
        for (; it.valid(); it.next()) {
          assertArrayEquals(data.keys.get(returned), it.key());
          assertArrayEquals(data.values.get(returned), it.value());
          returned++;
        }
      } catch (TableCorruptionException thrown) {
        e = thrown;
      }
      assertNotNull(e, "iteration must not run through a corrupt block");
      assertNamesFileAndOffset(e, f, block3);
      assertEquals(inBlock3, returned, "returns every entry before block 3, then fails");
      assertTrue(!it.valid(), "invalid after the failed move");
    }
  }

  @Test
  void flippedBlockTrailerIsDetected() throws IOException {
    try (MSTableReader r = open(pristine)) {
      long block4 = r.sequence(0).blockOffset(4);
      for (long off = block4 - TableFormat.TRAILER_SIZE; off < block4; off++) {
        Path f = flipped(off);
        try (MSTableReader bad = open(f)) {
          TableIterator it = bad.sequence(0).iterator();
          TableCorruptionException e = assertThrows(TableCorruptionException.class, () -> {
            for (it.seekToFirst(); it.valid(); it.next()) {
              it.value();
            }
          });
          assertNamesFileAndOffset(e, f, r.sequence(0).blockOffset(3));
        }
      }
    }
  }

  @Test
  void flippedIndexByteFailsOpen() throws IOException {
    Path f = flipped(handle.metaOffset() + 7);
    TableCorruptionException e = assertThrows(TableCorruptionException.class, () -> open(f));
    assertNamesFileAndOffset(e, f, handle.metaOffset());
    assertTrue(e.getMessage().contains("index"), e.getMessage());
  }

  @Test
  void flippedFilterByteFailsOpen() throws IOException {
    assertTrue(filterOffset > handle.metaOffset());
    Path f = flipped(filterOffset + 100);
    TableCorruptionException e = assertThrows(TableCorruptionException.class, () -> open(f));
    assertNamesFileAndOffset(e, f, filterOffset);
    assertTrue(e.getMessage().contains("filter"), e.getMessage());
  }

  @Test
  void flippedPropertiesByteFailsOpen() throws IOException {
    long lastMetaByte = handle.metaOffset() + handle.metaLength() - 1;
    Path f = flipped(lastMetaByte - 8);
    TableCorruptionException e = assertThrows(TableCorruptionException.class, () -> open(f));
    assertTrue(e.getMessage().contains(f.getFileName().toString()), e.getMessage());
    assertTrue(e.offset() > filterOffset && e.offset() < lastMetaByte, e.getMessage());
    assertTrue(e.getMessage().contains("offset " + e.offset()));
  }

  @Test
  void everyFlippedFooterByteFailsOpen() throws IOException {
    long footer = Files.size(pristine) - Footer.SIZE;
    for (int i = 0; i < Footer.SIZE; i++) {
      Path f = flipped(footer + i);
      TableCorruptionException e = assertThrows(TableCorruptionException.class, () -> open(f), "byte " + i);
      assertNamesFileAndOffset(e, f, footer);
      assertThrows(TableCorruptionException.class,
          () -> MSTableWriter.openForAppend(LocalFs.INSTANCE, f, 5, TableOptions.DEFAULT, CMP));
    }
  }

  @Test
  void unknownVersionWithValidChecksumIsRejected() throws IOException {
    long footerOffset = Files.size(pristine) - Footer.SIZE;
    Path f = dir.resolve("future.mst");
    Files.copy(pristine, f, StandardCopyOption.REPLACE_EXISTING);
    byte[] future = new Footer(TableFormat.VERSION + 1, 1, handle.dataEnd(), handle.metaOffset(), handle.metaLength(), 10).encode();
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      raf.seek(footerOffset);
      raf.write(future);
    }
    TableCorruptionException e = assertThrows(TableCorruptionException.class, () -> open(f));
    assertNamesFileAndOffset(e, f, footerOffset);
    assertTrue(e.getMessage().contains("version " + (TableFormat.VERSION + 1)), e.getMessage());
    assertTrue(e.getMessage().contains("reads versions 1 to " + TableFormat.VERSION), e.getMessage());
  }

  @Test
  void truncatedOrForeignFilesAreRejected() throws IOException {
    Path tiny = dir.resolve("tiny.mst");
    Files.write(tiny, new byte[20]);
    assertNamesFileAndOffset(assertThrows(TableCorruptionException.class, () -> open(tiny)), tiny, 0);

    Path zeros = dir.resolve("zeros.mst");
    Files.write(zeros, new byte[4096]);
    TableCorruptionException e = assertThrows(TableCorruptionException.class, () -> open(zeros));
    assertNamesFileAndOffset(e, zeros, 4096 - Footer.SIZE);
    assertTrue(e.getMessage().contains("magic"));

    // Cutting the file moves the footer away: the bytes now at the end are no footer.
    Path cut = dir.resolve("cut.mst");
    byte[] all = Files.readAllBytes(pristine);
    Files.write(cut, java.util.Arrays.copyOf(all, all.length - 1));
    assertThrows(TableCorruptionException.class, () -> open(cut));
  }

  /** Random single-byte damage anywhere: either an error, or exactly the original data. */
  @Test
  void randomDamageNeverYieldsWrongData() throws IOException {
    Random r = new Random(99);
    long size = Files.size(pristine);
    int detected = 0;
    for (int round = 0; round < 150; round++) {
      long off = (long) (r.nextDouble() * size);
      Path f = flipped(off);
      try (MSTableReader rd = open(f)) {
        data.assertIteratesExactly(rd.sequence(0));
      } catch (TableCorruptionException e) {
        assertNamesFileAndOffset(e, f, e.offset());
        detected++;
      }
      Files.delete(f);
    }
    assertEquals(150, detected, "every byte of a compact file is covered by a checksum");
  }

  @Test
  void damageInTheHoleOfACapacityFileIsHarmlessAndOlderMetadataIsChecked() throws IOException {
    Path f = dir.resolve("capacity.mst");
    TableTestData a = TableTestData.random(1, 1_000, 1, 0, 50);
    TableTestData b = TableTestData.random(2, 1_000, 1L << 32, 0, 50);
    SequenceHandle ha;
    SequenceHandle hb;
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 5, 1 << 20, TableOptions.DEFAULT, CMP)) {
      ha = a.writeTo(w);
      hb = b.writeTo(w);
    }
    flip(f, hb.dataEnd() + 1000);
    try (MSTableReader r = open(f)) {
      a.assertIteratesExactly(r.sequence(0));
      b.assertIteratesExactly(r.sequence(1));
    }
    flip(f, ha.metaOffset() + 3); // the older sequence's index block
    TableCorruptionException e = assertThrows(TableCorruptionException.class, () -> open(f));
    assertNamesFileAndOffset(e, f, ha.metaOffset());
  }
}
