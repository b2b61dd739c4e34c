package io.iam.core.table;

import static io.iam.core.table.TableTestData.CMP;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.LocalFs;
import io.iam.core.key.InternalKey;
import io.iam.core.key.ValueType;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Argument and state checks of the writer, reader and options. */
class MSTableValidationTest {

  @TempDir
  Path dir;

  private static byte[] k(String user, long seq) {
    return InternalKey.encode(user.getBytes(), seq, ValueType.PUT);
  }

  private MSTableWriter compact(String name) throws IOException {
    return MSTableWriter.create(LocalFs.INSTANCE, dir.resolve(name), 1, 0, TableOptions.DEFAULT, CMP);
  }

  @Test
  void outOfOrderKeysAreRejectedAndTheSequenceStaysUsable() throws IOException {
    Path f = dir.resolve("order.mst");
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 1, 0, TableOptions.DEFAULT, CMP)) {
      SequenceWriter s = w.beginSequence();
      s.add(k("b", 5), "b5".getBytes());
      assertThrows(IllegalArgumentException.class, () -> s.add(k("a", 9), new byte[0]), "smaller user key");
      assertThrows(IllegalArgumentException.class, () -> s.add(k("b", 5), new byte[0]), "equal key");
      assertThrows(IllegalArgumentException.class, () -> s.add(k("b", 6), new byte[0]),
          "newer version after an older one (trailers sort descending)");
      assertThrows(IllegalArgumentException.class, () -> s.add(new byte[7], new byte[0]), "shorter than a trailer");
      s.add(k("b", 4), "b4".getBytes());
      s.add(k("c", 1), "c1".getBytes());
      SequenceHandle h = s.finish();
      assertEquals(3, h.entries());
      assertEquals(1, h.smallestSequence());
      assertEquals(5, h.largestSequence());
    }
    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 1, new NoCacheForTests(), TableOptions.DEFAULT,
        CMP)) {
      SequenceReader s = r.sequence(0);
      assertArrayEquals("b5".getBytes(), s.seek(InternalKey.seekKey("b".getBytes(), 100)).value());
      assertArrayEquals("b4".getBytes(), s.seek(InternalKey.seekKey("b".getBytes(), 4)).value());
      assertArrayEquals(k("c", 1), s.seek(InternalKey.seekKey("b".getBytes(), 3)).key());
      assertThrows(IllegalArgumentException.class, () -> s.seek(new byte[3]));
      assertThrows(IllegalArgumentException.class, () -> s.iterator().seek(new byte[3]));
      assertTrue(s.mayContain("b".getBytes()));
      assertTrue(s.mayContain("c".getBytes()));
      assertThrows(IndexOutOfBoundsException.class, () -> r.sequence(1));
    }
  }

  @Test
  void sequenceLifecycleIsEnforced() throws IOException {
    try (MSTableWriter w = compact("life.mst")) {
      SequenceWriter s = w.beginSequence();
      assertThrows(IllegalStateException.class, w::beginSequence, "one sequence at a time");
      assertThrows(IllegalStateException.class, s::finish, "empty sequence");
      s.abandon();
      assertThrows(IllegalStateException.class, () -> s.add(k("a", 1), new byte[0]));
      SequenceWriter t = w.beginSequence();
      t.add(k("a", 1), new byte[0]);
      t.finish();
      assertThrows(IllegalStateException.class, t::finish);
    }
  }

  @Test
  void closedWriterRefusesNewSequences() throws IOException {
    MSTableWriter w = compact("closed.mst");
    w.close();
    w.close();
    assertThrows(IllegalStateException.class, w::beginSequence);
  }

  @Test
  void abandonedSequenceLeavesNothingVisible() throws IOException {
    Path f = dir.resolve("abandon.mst");
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 1, 1 << 20, TableOptions.DEFAULT, CMP)) {
      SequenceWriter s = w.beginSequence();
      TableTestData d = TableTestData.random(1, 5_000, 1, 0, 60);
      for (int i = 0; i < d.size(); i++) {
        s.add(d.keys.get(i), d.values.get(i));
      }
      s.abandon();
      assertEquals(0, w.sequenceCount());
      assertEquals((1 << 20) - Footer.SIZE, w.freeBytes());
      SequenceWriter t = w.beginSequence();
      t.add(k("only", 1), "v".getBytes());
      SequenceHandle h = t.finish();
      assertEquals(0, h.dataStart());
    }
    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 1, null, TableOptions.DEFAULT, CMP)) {
      assertEquals(1, r.sequences().size());
      TableIterator it = r.sequence(0).iterator();
      it.seekToFirst();
      assertArrayEquals(k("only", 1), it.key());
      it.next();
      assertFalse(it.valid());
      assertThrows(java.util.NoSuchElementException.class, it::key);
    }
  }

  @Test
  void compactFileEndsAtItsFooterAfterAnAbandonedLongerAttempt() throws IOException {
    Path f = dir.resolve("compact-retry.mst");
    TableTestData big = TableTestData.random(8, 5_000, 1, 0, 100);
    TableTestData small = TableTestData.random(9, 100, 1, 0, 100);
    SequenceHandle h;
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 1, 0, TableOptions.DEFAULT, CMP)) {
      SequenceWriter s = w.beginSequence();
      for (int i = 0; i < big.size(); i++) {
        s.add(big.keys.get(i), big.values.get(i));
      }
      s.abandon();
      assertTrue(Files.size(f) > 100_000, "the abandoned attempt streamed data blocks to the file");
      h = small.writeTo(w);
      assertEquals(h.metaOffset() + h.metaLength() + Footer.SIZE, w.fileSize());
    }
    assertEquals(h.metaOffset() + h.metaLength() + Footer.SIZE, Files.size(f));
    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 1, null, TableOptions.DEFAULT, CMP)) {
      assertEquals(List.of(h), r.sequences());
      small.assertIteratesExactly(r.sequence(0));
    }
  }

  @Test
  void closingWithAnOpenSequenceAbandonsIt() throws IOException {
    Path f = dir.resolve("close.mst");
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 1, 1 << 20, TableOptions.DEFAULT, CMP)) {
      w.beginSequence().add(k("a", 1), new byte[10]);
    }
    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 1, null, TableOptions.DEFAULT, CMP)) {
      assertEquals(List.of(), r.sequences());
    }
  }

  @Test
  void withoutBloomBitsThereIsNoFilter() throws IOException {
    Path f = dir.resolve("nofilter.mst");
    TableOptions opts = TableOptions.DEFAULT.withBloomBitsPerKey(0);
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 1, 0, opts, CMP)) {
      SequenceWriter s = w.beginSequence();
      s.add(k("a", 1), new byte[0]);
      s.finish();
    }
    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 1, null, opts, CMP)) {
      assertFalse(r.sequence(0).hasFilter());
      assertTrue(r.sequence(0).mayContain("anything".getBytes()));
    }
  }

  @Test
  void filesAndCapacitiesAreChecked() throws IOException {
    assertThrows(IllegalArgumentException.class,
        () -> MSTableWriter.create(LocalFs.INSTANCE, dir.resolve("x.mst"), 1, -1, TableOptions.DEFAULT, CMP));
    assertThrows(IllegalArgumentException.class,
        () -> MSTableWriter.create(LocalFs.INSTANCE, dir.resolve("y.mst"), 1, 100, TableOptions.DEFAULT, CMP));
    assertFalse(Files.exists(dir.resolve("y.mst")));
    compact("exists.mst").close();
    assertThrows(FileAlreadyExistsException.class, () -> compact("exists.mst"));
    assertThrows(NoSuchFileException.class,
        () -> MSTableWriter.openForAppend(LocalFs.INSTANCE, dir.resolve("missing.mst"), 1, TableOptions.DEFAULT, CMP));
    assertThrows(IOException.class,
        () -> MSTableReader.open(LocalFs.INSTANCE, dir.resolve("missing.mst"), 1, null, TableOptions.DEFAULT, CMP));
  }

  @Test
  void optionsAreValidated() {
    assertEquals(new TableOptions(4096, 14, 16), TableOptions.defaults());
    assertThrows(IllegalArgumentException.class, () -> new TableOptions(100, 14, 16));
    assertThrows(IllegalArgumentException.class, () -> new TableOptions((64 << 20) + 1, 14, 16));
    assertThrows(IllegalArgumentException.class, () -> new TableOptions(4096, -1, 16));
    assertThrows(IllegalArgumentException.class, () -> new TableOptions(4096, 65, 16));
    assertThrows(IllegalArgumentException.class, () -> new TableOptions(4096, 14, 0));
    assertEquals(new TableOptions(8192, 10, 4),
        TableOptions.DEFAULT.withBlockSize(8192).withBloomBitsPerKey(10).withRestartInterval(4));
  }
}
