package io.iam.core.table;

import static io.iam.core.table.TableTestData.CMP;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.LocalFs;
import io.iam.core.key.InternalKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several sequences in one capacity file: appends, capacity limits, reopening and rollback. */
class MSTableAppendTest {

  private static final long CAPACITY = 8L << 20;

  @TempDir
  Path dir;

  private static TableTestData sequenceData(int i, int n) {
    // Each sequence is a later "flush": newer sequence numbers, overlapping key ranges.
    return TableTestData.random(1000 + i, n, (long) i << 32, 1, 150);
  }

  private static MSTableReader open(Path f) throws IOException {
    return MSTableReader.open(LocalFs.INSTANCE, f, 7, new NoCacheForTests(), TableOptions.DEFAULT, CMP);
  }

  private static void assertAllReadBack(Path f, List<TableTestData> datas, List<SequenceHandle> handles)
      throws IOException {
    try (MSTableReader r = open(f)) {
      assertEquals(handles, r.sequences());
      assertEquals(CAPACITY, r.fileSize());
      for (int i = 0; i < datas.size(); i++) {
        SequenceReader s = r.sequence(i);
        assertEquals(handles.get(i), s.handle());
        datas.get(i).assertIteratesExactly(s);
        datas.get(i).assertSeeksFind(s, 7);
        for (byte[] k : datas.get(i).keys) {
          assertTrue(s.mayContain(InternalKey.userKey(k)));
        }
      }
    }
  }

  @Test
  void fourSequencesAppendedToOneFileReadBackExactly() throws IOException {
    Path f = dir.resolve("000007.mst");
    List<TableTestData> datas = new ArrayList<>();
    List<SequenceHandle> handles = new ArrayList<>();
    MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 7, CAPACITY, TableOptions.DEFAULT, CMP);
    assertEquals(CAPACITY, Files.size(f), "the capacity is reserved up front");
    assertEquals(CAPACITY - Footer.SIZE, w.freeBytes());
    try (MSTableReader empty = open(f)) {
      assertEquals(0, empty.sequences().size());
    }
    for (int i = 0; i < 4; i++) {
      if (i == 2) {
        // Reopen between appends: the writer resumes from the footer alone.
        w.close();
        w = MSTableWriter.openForAppend(LocalFs.INSTANCE, f, 7, TableOptions.DEFAULT, CMP);
        assertEquals(2, w.sequenceCount());
      }
      long freeBefore = w.freeBytes();
      TableTestData d = sequenceData(i, 15_000);
      SequenceHandle h = d.writeTo(w);
      d.assertDescribes(h, i);
      assertEquals(freeBefore - h.dataLength() - h.metaLength(), w.freeBytes());
      datas.add(d);
      handles.add(h);
      assertEquals(CAPACITY, Files.size(f), "appends stay inside the reserved length");
      assertAllReadBack(f, datas, handles); // older sequences unchanged after each append
    }
    w.close();

    // Layout: data grows forward contiguously, metadata stacks downward below the footer.
    assertEquals(0, handles.get(0).dataStart());
    assertEquals(CAPACITY - Footer.SIZE, handles.get(0).metaOffset() + handles.get(0).metaLength());
    for (int i = 1; i < 4; i++) {
      assertEquals(handles.get(i - 1).dataEnd(), handles.get(i).dataStart());
      assertEquals(handles.get(i - 1).metaOffset(), handles.get(i).metaOffset() + handles.get(i).metaLength());
      assertTrue(handles.get(i).smallestSequence() > handles.get(i - 1).largestSequence());
    }
    assertTrue(handles.get(3).dataEnd() < handles.get(3).metaOffset());

    // A shared cache keyed by (file, offset) never confuses blocks of different sequences.
    MapCacheForTests cache = new MapCacheForTests();
    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 7, cache, TableOptions.DEFAULT, CMP)) {
      for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 4; i++) {
          datas.get(i).assertSeeksFind(r.sequence(i), 11);
        }
      }
      assertTrue(cache.hits() > 0);
    }
  }

  @Test
  void sequenceThatDoesNotFitThrowsAndLeavesTheFileReadable() throws IOException {
    Path f = dir.resolve("full.mst");
    TableTestData first = sequenceData(0, 6_000);
    TableTestData tooBig = sequenceData(1, 6_000);
    TableTestData small = sequenceData(2, 500);
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 7, 1 << 20, TableOptions.DEFAULT, CMP)) {
      SequenceHandle h0 = first.writeTo(w);
      assertTrue(h0.dataLength() > (1 << 20) / 3 && h0.dataLength() < (1 << 20) * 2 / 3, "two such sequences cannot share 1 MiB");
      long free = w.freeBytes();
      TableFullException e = assertThrows(TableFullException.class, () -> tooBig.writeTo(w));
      assertTrue(e.needed() > free);
      assertEquals(free, e.free());
      assertTrue(e.getMessage().contains(f.toString()));
      assertEquals(1, w.sequenceCount());
      assertEquals(free, w.freeBytes());
      try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 7, new NoCacheForTests(), TableOptions.DEFAULT,
          CMP)) {
        assertEquals(List.of(h0), r.sequences());
        first.assertIteratesExactly(r.sequence(0));
      }
      // The writer is still usable: a sequence that fits goes in.
      SequenceHandle h1 = small.writeTo(w);
      try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 7, new NoCacheForTests(), TableOptions.DEFAULT,
          CMP)) {
        assertEquals(List.of(h0, h1), r.sequences());
        first.assertIteratesExactly(r.sequence(0));
        small.assertIteratesExactly(r.sequence(1));
      }
    }
  }

  @Test
  void metadataThatDoesNotFitMakesFinishThrow() throws IOException {
    Path f = dir.resolve("meta-full.mst");
    TableTestData first = sequenceData(0, 2_000);
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 7, 256 << 10, TableOptions.DEFAULT, CMP)) {
      SequenceHandle h0 = first.writeTo(w);
      long free = w.freeBytes();
      SequenceWriter s = w.beginSequence();
      java.util.Random r = new java.util.Random(5);
      long seq = 1L << 40;
      int i = 0;
      // Fill until data plus (estimated, slightly high) metadata exceeds the hole by 300 bytes.
      while (s.estimatedSize() <= free + 300) {
        byte[] v = new byte[100];
        r.nextBytes(v);
        s.add(InternalKey.encode(String.format("z%08d", i++).getBytes(), seq, io.iam.core.key.ValueType.PUT), v);
      }
      assertTrue(s.dataSize() < free - 500, "the data alone fits");
      TableFullException e = assertThrows(TableFullException.class, s::finish);
      assertTrue(e.needed() > free);
      assertThrows(IllegalStateException.class, () -> s.add(InternalKey.encode(new byte[] {1}, 1,
          io.iam.core.key.ValueType.PUT), new byte[0]), "the sequence is abandoned");
      assertEquals(1, w.sequenceCount());
      try (MSTableReader rd = MSTableReader.open(LocalFs.INSTANCE, f, 7, new NoCacheForTests(), TableOptions.DEFAULT,
          CMP)) {
        assertEquals(List.of(h0), rd.sequences());
        first.assertIteratesExactly(rd.sequence(0));
      }
    }
  }

  @Test
  void compactFileTakesNoAppend() throws IOException {
    Path f = dir.resolve("compact.mst");
    TableTestData d = sequenceData(0, 1_000);
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 7, 0, TableOptions.DEFAULT, CMP)) {
      d.writeTo(w);
      assertThrows(TableFullException.class, () -> sequenceData(1, 10).writeTo(w));
    }
    long size = Files.size(f);
    try (MSTableWriter w = MSTableWriter.openForAppend(LocalFs.INSTANCE, f, 7, TableOptions.DEFAULT, CMP)) {
      assertEquals(0, w.freeBytes());
      assertThrows(TableFullException.class, () -> sequenceData(1, 10).writeTo(w));
    }
    assertEquals(size, Files.size(f));
    try (MSTableReader r = open(f)) {
      assertEquals(1, r.sequences().size());
      d.assertIteratesExactly(r.sequence(0));
    }
  }

  @Test
  void sequencesNotInTheManifestAreIgnoredOrRolledBack() throws IOException {
    Path f = dir.resolve("rollback.mst");
    List<TableTestData> datas = new ArrayList<>();
    List<SequenceHandle> handles = new ArrayList<>();
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 7, CAPACITY, TableOptions.DEFAULT, CMP)) {
      for (int i = 0; i < 4; i++) {
        datas.add(sequenceData(i, 2_000));
        handles.add(datas.get(i).writeTo(w));
      }
    }
    // A reader limited to what the manifest recorded.
    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 7, new NoCacheForTests(), TableOptions.DEFAULT,
        CMP, 3)) {
      assertEquals(handles.subList(0, 3), r.sequences());
      datas.get(2).assertIteratesExactly(r.sequence(2));
    }
    TableCorruptionException missing = assertThrows(TableCorruptionException.class,
        () -> MSTableReader.open(LocalFs.INSTANCE, f, 7, null, TableOptions.DEFAULT, CMP, 5));
    assertTrue(missing.getMessage().contains(f.toString()));

    // A writer that keeps two sequences drops the others and reuses their space.
    TableTestData replacement = sequenceData(9, 3_000);
    SequenceHandle h2;
    try (MSTableWriter w = MSTableWriter.openForAppend(LocalFs.INSTANCE, f, 7, TableOptions.DEFAULT, CMP, 2)) {
      assertEquals(2, w.sequenceCount());
      assertEquals(handles.get(1).metaOffset() - handles.get(1).dataEnd(), w.freeBytes());
      try (MSTableReader r = open(f)) {
        assertEquals(handles.subList(0, 2), r.sequences(), "the rollback is durable before any append");
      }
      h2 = replacement.writeTo(w);
    }
    assertEquals(handles.get(2).dataStart(), h2.dataStart());
    replacement.assertDescribes(h2, 2);
    try (MSTableReader r = open(f)) {
      assertEquals(List.of(handles.get(0), handles.get(1), h2), r.sequences());
      datas.get(0).assertIteratesExactly(r.sequence(0));
      datas.get(1).assertIteratesExactly(r.sequence(1));
      replacement.assertIteratesExactly(r.sequence(2));
    }
    // Rolling back to nothing leaves an empty, appendable file.
    try (MSTableWriter w = MSTableWriter.openForAppend(LocalFs.INSTANCE, f, 7, TableOptions.DEFAULT, CMP, 0)) {
      assertEquals(CAPACITY - Footer.SIZE, w.freeBytes());
    }
    try (MSTableReader r = open(f)) {
      assertEquals(0, r.sequences().size());
    }
  }

  @Test
  void readerWithoutCacheReadsDirectly() throws IOException {
    Path f = dir.resolve("nocache.mst");
    TableTestData d = sequenceData(3, 3_000);
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 7, 1 << 20, TableOptions.DEFAULT, CMP)) {
      d.writeTo(w);
    }
    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 7, null, TableOptions.DEFAULT, CMP)) {
      d.assertIteratesExactly(r.sequence(0));
      assertArrayEquals(d.values.get(17), r.sequence(0).seek(d.keys.get(17)).value());
    }
  }
}
