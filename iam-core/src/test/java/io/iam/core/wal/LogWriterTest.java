package io.iam.core.wal;

import static io.iam.core.wal.LogFormat.BLOCK_SIZE;
import static io.iam.core.wal.LogFormat.FIRST_TYPE;
import static io.iam.core.wal.LogFormat.FULL_TYPE;
import static io.iam.core.wal.LogFormat.HEADER_SIZE;
import static io.iam.core.wal.LogFormat.LAST_TYPE;
import static io.iam.core.wal.LogFormat.MAX_FRAGMENT_PAYLOAD;
import static io.iam.core.wal.LogFormat.MIDDLE_TYPE;
import static io.iam.core.wal.LogTesting.FS;
import static io.iam.core.wal.LogTesting.bytes;
import static io.iam.core.wal.LogTesting.layout;
import static io.iam.core.wal.LogTesting.payload;
import static io.iam.core.wal.LogTesting.readAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.FaultInjectingFs;
import io.iam.core.fs.FaultInjectingFs.InjectedFault;
import io.iam.core.fs.FaultInjectingFs.Op;
import io.iam.core.fs.Fs;
import io.iam.core.fs.ForwardingFsFile;
import io.iam.core.fs.FsFile;
import io.iam.core.util.Checksums;
import io.iam.core.util.Coding;
import io.iam.core.wal.LogTesting.Fragment;
import io.iam.core.wal.LogTesting.Placed;
import io.iam.core.wal.LogTesting.ReadResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogWriterTest {

  @TempDir Path dir;

  @Test
  void smallRecordHasTheDocumentedHeader() throws IOException {
    Path path = dir.resolve("a.log");
    byte[] abc = "abc".getBytes(StandardCharsets.US_ASCII);
    assertEquals(10, LogTesting.writeLog(path, List.of(abc)));
    byte[] file = bytes(path);
    assertEquals(10, file.length);
    assertEquals(Checksums.mask(Checksums.crc32c((byte) FULL_TYPE, abc, 0, 3)), Coding.getFixed32(file, 0));
    assertEquals(3, file[4]);
    assertEquals(0, file[5]);
    assertEquals(FULL_TYPE, file[6]);
    assertEquals("abc", new String(file, 7, 3, StandardCharsets.US_ASCII));
  }

  @Test
  void recordsSplitAtBlockBoundariesWithZeroTrailers() throws IOException {
    Path path = dir.resolve("b.log");
    // 1: fills block 0 exactly. 2: leaves 3 bytes in block 1 (a trailer). 3: FIRST/MIDDLE/LAST.
    List<Integer> lengths = List.of(MAX_FRAGMENT_PAYLOAD, MAX_FRAGMENT_PAYLOAD - 3, 2 * MAX_FRAGMENT_PAYLOAD + 5, 0);
    List<byte[]> records = new ArrayList<>();
    for (int i = 0; i < lengths.size(); i++) {
      byte[] p = payload(i, lengths.get(i));
      if (p.length > 0) {
        p[0] = (byte) 0xFF; // no payload starts with a zero byte, so zeros in the file are padding
      }
      records.add(p);
    }
    long size = LogTesting.writeLog(path, records);
    byte[] file = bytes(path);
    assertEquals(size, file.length);

    List<Placed> model = layout(0, lengths);
    assertEquals(model.get(model.size() - 1).end(), file.length);
    assertEquals(0, model.get(0).start());
    assertEquals(BLOCK_SIZE, model.get(1).start());
    assertEquals(2L * BLOCK_SIZE, model.get(2).start(), "the 3-byte trailer is skipped");
    assertTrue(LogTesting.allZero(file, 2L * BLOCK_SIZE - 3, 2L * BLOCK_SIZE), "the trailer is zeros");
    assertEquals(List.of(FIRST_TYPE, MIDDLE_TYPE, LAST_TYPE),
        model.get(2).fragments().stream().map(Fragment::type).toList());
    for (int i = 0; i < model.size(); i++) {
      for (Fragment f : model.get(i).fragments()) {
        int at = (int) f.offset();
        assertEquals(f.type(), file[at + 6], "type of a fragment of record " + i);
        assertEquals(f.length(), (file[at + 4] & 0xFF) | (file[at + 5] & 0xFF) << 8);
        assertEquals(Checksums.mask(Checksums.crc32c((byte) f.type(), file, at + HEADER_SIZE, f.length())),
            Coding.getFixed32(file, at));
      }
    }
    ReadResult read = readAll(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
    assertEquals(records.size(), read.records().size());
    for (int i = 0; i < records.size(); i++) {
      assertArrayEquals(records.get(i), read.records().get(i));
    }
  }

  /** Counts the writes an FsFile receives. */
  private static final class RecordingFile extends ForwardingFsFile {
    final List<long[]> writes = new ArrayList<>();

    RecordingFile(FsFile delegate) {
      super(delegate);
    }

    @Override
    public void write(long position, ByteBuffer src) throws IOException {
      writes.add(new long[] {position, src.remaining()});
      super.write(position, src);
    }
  }

  @Test
  void eachRecordIsOnePositionalWriteIncludingItsTrailer() throws IOException {
    Path path = dir.resolve("c.log");
    RecordingFile file = new RecordingFile(FS.open(path, Fs.Mode.CREATE_NEW));
    int[] sizes = {0, 1, MAX_FRAGMENT_PAYLOAD - 10, 100, MAX_FRAGMENT_PAYLOAD, MAX_FRAGMENT_PAYLOAD + 1, 100_000, 3 << 20, 0, 7};
    List<byte[]> records = new ArrayList<>();
    try (LogWriter w = new LogWriter(file, path, 0)) {
      for (int i = 0; i < sizes.length; i++) {
        byte[] p = payload(100 + i, sizes[i]);
        records.add(p);
        long before = w.size();
        int writesBefore = file.writes.size();
        w.addRecord(p);
        assertEquals(writesBefore + 1, file.writes.size(), "one write for a record of " + sizes[i] + " bytes");
        long[] write = file.writes.get(file.writes.size() - 1);
        assertEquals(before, write[0], "written at the append position");
        assertEquals(w.size() - before, write[1], "the write holds the whole record");
        assertEquals(w.size(), file.size(), "handed to the OS when addRecord returns");
      }
    }
    List<Integer> lengths = new ArrayList<>();
    for (int s : sizes) {
      lengths.add(s);
    }
    List<Placed> model = layout(0, lengths);
    assertEquals(model.get(model.size() - 1).end(), bytes(path).length, "size matches the format model");
    ReadResult read = readAll(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
    for (int i = 0; i < records.size(); i++) {
      assertArrayEquals(records.get(i), read.records().get(i));
    }
  }

  @Test
  void addRecordWithOffsetAndLengthWritesOnlyThatSlice() throws IOException {
    Path path = dir.resolve("d.log");
    byte[] big = payload(7, 100_000);
    try (LogWriter w = new LogWriter(FS.open(path, Fs.Mode.CREATE_NEW), path, 0)) {
      w.addRecord(big, 10, 5);
      w.addRecord(big, 1_000, 70_000);
      w.addRecord(big, big.length, 0);
      assertThrows(IndexOutOfBoundsException.class, () -> w.addRecord(big, 99_999, 2));
      assertThrows(IndexOutOfBoundsException.class, () -> w.addRecord(big, -1, 2));
    }
    ReadResult read = readAll(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
    assertEquals(3, read.records().size());
    assertArrayEquals(java.util.Arrays.copyOfRange(big, 10, 15), read.records().get(0));
    assertArrayEquals(java.util.Arrays.copyOfRange(big, 1_000, 71_000), read.records().get(1));
    assertEquals(0, read.records().get(2).length);
  }

  @Test
  void continuingAtEveryTrailerOffsetKeepsTheFormat() throws IOException {
    // A first record leaves r bytes in block 0 (r = 0..10, trailers included); a second writer
    // continues from the reader's valid length.
    for (int r = 0; r <= 10; r++) {
      Path path = dir.resolve("cont-" + r + ".log");
      byte[] first = payload(r, BLOCK_SIZE - HEADER_SIZE - r);
      LogTesting.writeLog(path, List.of(first));
      ReadResult before = readAll(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
      assertEquals(BLOCK_SIZE - r, before.validLength());
      byte[] second = payload(50 + r, 40);
      byte[] third = payload(80 + r, 70_000);
      try (LogWriter w = new LogWriter(FS.open(path, Fs.Mode.WRITE), path, before.validLength())) {
        assertEquals(BLOCK_SIZE - r, w.size());
        w.addRecord(second);
        w.addRecord(third);
        w.sync();
      }
      List<Placed> model = layout(0, List.of(first.length, second.length, third.length));
      long expectedSecond = r < HEADER_SIZE ? BLOCK_SIZE : BLOCK_SIZE - r;
      assertEquals(expectedSecond, model.get(1).start());
      assertEquals(model.get(2).end(), bytes(path).length);
      ReadResult after = readAll(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
      assertEquals(3, after.records().size(), "r=" + r);
      assertArrayEquals(first, after.records().get(0));
      assertArrayEquals(second, after.records().get(1));
      assertArrayEquals(third, after.records().get(2));
      assertEquals(bytes(path).length, after.validLength());
    }
  }

  @Test
  void continuingALogAppendsAfterTheValidLength() throws IOException {
    Path path = dir.resolve("e.log");
    List<byte[]> all = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      all.add(payload(i, (i * 977) % 40_000));
    }
    long size = LogTesting.writeLog(path, all);
    ReadResult first = readAll(path, RecoveryMode.TOLERATE_CORRUPTED_TAIL);
    assertEquals(size, first.validLength());

    try (LogWriter w = new LogWriter(FS.open(path, Fs.Mode.WRITE), path, first.validLength())) {
      for (int i = 50; i < 120; i++) {
        byte[] p = payload(i, (i * 7919) % 90_000);
        all.add(p);
        w.addRecord(p);
      }
      w.sync();
      size = w.size();
    }
    ReadResult second = readAll(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
    assertEquals(all.size(), second.records().size());
    for (int i = 0; i < all.size(); i++) {
      assertArrayEquals(all.get(i), second.records().get(i), "record " + i);
    }
    assertEquals(size, second.validLength());
    assertEquals(size, bytes(path).length);
  }

  @Test
  void continuingAfterATornTailCutsTheStaleBytes() throws IOException {
    Path path = dir.resolve("f.log");
    List<byte[]> records = new ArrayList<>(List.of(payload(1, 500), payload(2, 100_000)));
    long size = LogTesting.writeLog(path, records);
    long cut = size - 40_000; // inside the second record's second block
    LogTesting.truncate(path, cut);
    ReadResult torn = readAll(path, RecoveryMode.TOLERATE_CORRUPTED_TAIL);
    assertTrue(torn.tornTail());
    assertEquals(1, torn.records().size());
    assertEquals(HEADER_SIZE + 500, torn.validLength());

    // Continue without truncating first: the writer cuts the stale bytes itself.
    byte[] next = payload(3, 10);
    try (LogWriter w = new LogWriter(FS.open(path, Fs.Mode.WRITE), path, torn.validLength())) {
      w.addRecord(next);
      w.sync();
      assertEquals(torn.validLength() + HEADER_SIZE + 10, w.size());
    }
    assertEquals(torn.validLength() + HEADER_SIZE + 10, bytes(path).length);
    ReadResult read = readAll(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
    assertEquals(2, read.records().size());
    assertArrayEquals(records.get(0), read.records().get(0));
    assertArrayEquals(next, read.records().get(1));
    assertFalse(read.tornTail());
  }

  @Test
  void appendingPastTheEndOfTheFileIsRefused() throws IOException {
    Path path = dir.resolve("g.log");
    LogTesting.writeLog(path, List.of(payload(1, 10)));
    try (LogWriter w = new LogWriter(FS.open(path, Fs.Mode.WRITE), path, 1_000)) {
      IOException e = assertThrows(IOException.class, () -> w.addRecord(new byte[1]));
      assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
    }
    assertEquals(HEADER_SIZE + 10, bytes(path).length, "nothing was written");
    try (FsFile f = FS.open(path, Fs.Mode.READ)) {
      assertThrows(IllegalArgumentException.class, () -> new LogWriter(f, path, -1));
    }
  }

  @Test
  void failingWriteSurfacesAndStopsTheWriter() throws IOException {
    FaultInjectingFs fs = new FaultInjectingFs(FS);
    Path path = dir.resolve("h.log");
    byte[] a = payload(1, 1_000);
    byte[] b = payload(2, 50_000);
    AtomicInteger writes = new AtomicInteger();
    fs.failWhen((op, p) -> op == Op.WRITE && writes.incrementAndGet() == 2);
    try (LogWriter w = new LogWriter(fs.open(path, Fs.Mode.CREATE_NEW), path, 0)) {
      w.addRecord(a);
      long sizeAfterA = w.size();
      IOException e = assertThrows(IOException.class, () -> w.addRecord(b));
      assertInstanceOf(InjectedFault.class, e);
      assertEquals(1, fs.injected());
      assertEquals(sizeAfterA, w.size(), "a failed record does not advance the append position");

      fs.heal();
      IOException again = assertThrows(IOException.class, () -> w.addRecord(b));
      assertInstanceOf(InjectedFault.class, again.getCause(), "the writer stays failed after a failed write");
      assertThrows(IOException.class, w::sync);
      assertEquals(sizeAfterA, w.size());
    }
    ReadResult read = readAll(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
    assertEquals(1, read.records().size());
    assertArrayEquals(a, read.records().get(0));
  }

  @Test
  void failingSyncSurfacesAndStopsTheWriter() throws IOException {
    FaultInjectingFs fs = new FaultInjectingFs(FS);
    Path path = dir.resolve("i.log");
    try (LogWriter w = new LogWriter(fs.open(path, Fs.Mode.CREATE_NEW), path, 0)) {
      w.addRecord(payload(1, 10));
      w.sync();
      w.addRecord(payload(2, 10));
      fs.failWhen((op, p) -> op == Op.SYNC && p.equals(path));
      IOException e = assertThrows(IOException.class, w::sync);
      assertInstanceOf(InjectedFault.class, e);
      fs.heal();
      IOException again = assertThrows(IOException.class, w::sync);
      assertInstanceOf(InjectedFault.class, again.getCause(), "a failed fsync is not retried");
      assertThrows(IOException.class, () -> w.addRecord(payload(3, 10)));
      assertEquals(1, fs.injected());
    }
  }

  @Test
  void failingTruncateOfAStaleTailCanBeRetried() throws IOException {
    Path path = dir.resolve("j.log");
    byte[] a = payload(1, 100);
    LogTesting.writeLog(path, List.of(a, payload(2, 100)));
    FaultInjectingFs fs = new FaultInjectingFs(FS);
    fs.failWhen((op, p) -> op == Op.TRUNCATE);
    byte[] c = payload(3, 30);
    try (LogWriter w = new LogWriter(fs.open(path, Fs.Mode.WRITE), path, HEADER_SIZE + 100)) {
      assertThrows(InjectedFault.class, () -> w.addRecord(c));
      fs.heal();
      w.addRecord(c);
      w.sync();
    }
    ReadResult read = readAll(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
    assertEquals(2, read.records().size());
    assertArrayEquals(a, read.records().get(0));
    assertArrayEquals(c, read.records().get(1));
  }

  @Test
  void closedWriterRefusesWrites() throws IOException {
    Path path = dir.resolve("k.log");
    LogWriter w = new LogWriter(FS.open(path, Fs.Mode.CREATE_NEW), path, 0);
    w.addRecord(payload(1, 3));
    w.close();
    w.close();
    assertThrows(IOException.class, () -> w.addRecord(payload(1, 3)));
    assertThrows(IOException.class, w::sync);
    assertEquals(1, readAll(path, RecoveryMode.ABSOLUTE_CONSISTENCY).records().size());
  }
}
