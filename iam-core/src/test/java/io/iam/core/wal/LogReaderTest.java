package io.iam.core.wal;

import static io.iam.core.wal.LogFormat.BLOCK_SIZE;
import static io.iam.core.wal.LogFormat.FIRST_TYPE;
import static io.iam.core.wal.LogFormat.FULL_TYPE;
import static io.iam.core.wal.LogFormat.HEADER_SIZE;
import static io.iam.core.wal.LogFormat.LAST_TYPE;
import static io.iam.core.wal.LogFormat.MAX_FRAGMENT_PAYLOAD;
import static io.iam.core.wal.LogFormat.MIDDLE_TYPE;
import static io.iam.core.wal.LogFormat.nextBlockStart;
import static io.iam.core.wal.LogTesting.FS;
import static io.iam.core.wal.LogTesting.allZero;
import static io.iam.core.wal.LogTesting.bytes;
import static io.iam.core.wal.LogTesting.concat;
import static io.iam.core.wal.LogTesting.fragment;
import static io.iam.core.wal.LogTesting.layout;
import static io.iam.core.wal.LogTesting.payload;
import static io.iam.core.wal.LogTesting.readAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.Fs;
import io.iam.core.wal.LogTesting.Fragment;
import io.iam.core.wal.LogTesting.Placed;
import io.iam.core.wal.LogTesting.ReadResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogReaderTest {

  private static final RecoveryMode TOLERATE = RecoveryMode.TOLERATE_CORRUPTED_TAIL;
  private static final RecoveryMode ABSOLUTE = RecoveryMode.ABSOLUTE_CONSISTENCY;
  private static final RecoveryMode SKIP = RecoveryMode.SKIP_CORRUPTED_RECORDS;

  @TempDir Path dir;

  // ---------------------------------------------------------------- round trips

  @Test
  void tenThousandRandomRecordsRoundTrip() throws IOException {
    Path path = dir.resolve("big.log");
    SplittableRandom rnd = new SplittableRandom(20240601);
    List<Integer> lengths = new ArrayList<>();
    long size;
    try (LogWriter w = new LogWriter(FS.open(path, Fs.Mode.CREATE_NEW), path, 0)) {
      for (int i = 0; i < 10_000; i++) {
        int len;
        if (i < 6) {
          len = new int[] {0, MAX_FRAGMENT_PAYLOAD, 0, 100 * 1024, MAX_FRAGMENT_PAYLOAD + 1, 0}[i];
        } else {
          int pick = rnd.nextInt(1000);
          int room = (int) (BLOCK_SIZE - w.size() % BLOCK_SIZE) - HEADER_SIZE;
          if (pick < 300) {
            len = rnd.nextInt(17); // empty and tiny
          } else if (pick < 650) {
            len = rnd.nextInt(17, 1025);
          } else if (pick < 900) {
            len = rnd.nextInt(1025, 4097);
          } else if (pick < 920) {
            len = MAX_FRAGMENT_PAYLOAD + rnd.nextInt(-3, 4); // about one block
          } else if (pick < 960) {
            len = Math.max(0, room + rnd.nextInt(-8, 9)); // fills the current block exactly or nearly
          } else if (pick < 980) {
            len = rnd.nextInt(8 * 1024, 40 * 1024);
          } else {
            len = rnd.nextInt(40 * 1024, 100 * 1024 + 1);
          }
        }
        lengths.add(len);
        byte[] p = payload(i, len);
        if (i % 3 == 0) {
          // Through the (array, offset, length) overload, from inside a larger array.
          byte[] padded = new byte[len + 11];
          padded[0] = 1;
          System.arraycopy(p, 0, padded, 5, len);
          padded[len + 10] = 2;
          w.addRecord(padded, 5, len);
        } else {
          w.addRecord(p);
        }
      }
      w.sync();
      size = w.size();
    }
    List<Placed> model = layout(0, lengths);
    assertEquals(model.get(model.size() - 1).end(), size, "the writer follows the format model");
    assertEquals(size, bytes(path).length);
    assertTrue(lengths.stream().filter(l -> l == 0).count() > 100, "many empty records");
    assertTrue(lengths.stream().filter(l -> l > BLOCK_SIZE).count() > 50, "many records span blocks");

    for (RecoveryMode mode : RecoveryMode.values()) {
      try (LogReader r = new LogReader(FS.open(path, Fs.Mode.READ), path, mode)) {
        for (int i = 0; i < lengths.size(); i++) {
          byte[] rec = r.next();
          assertNotNull(rec, "record " + i + " in " + mode);
          assertArrayEquals(payload(i, lengths.get(i)), rec, "record " + i + " in " + mode);
          assertEquals(model.get(i).end(), r.validLength());
        }
        assertNull(r.next());
        assertEquals(size, r.validLength());
        assertFalse(r.tornTail());
        assertEquals(0, r.droppedBytes());
      }
    }
  }

  @Test
  void multiMebibyteRecordsRoundTrip() throws IOException {
    Path path = dir.resolve("huge.log");
    int[] sizes = {5 * 1024 * 1024 + 3, 0, 1, 3 * MAX_FRAGMENT_PAYLOAD, 2 * 1024 * 1024, 8 * 1024 * 1024};
    List<byte[]> records = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      records.add(payload(i, sizes[i]));
    }
    long size = LogTesting.writeLog(path, records);
    List<Integer> lengths = new ArrayList<>();
    for (int s : sizes) {
      lengths.add(s);
    }
    assertEquals(layout(0, lengths).get(sizes.length - 1).end(), size);
    ReadResult read = readAll(path, ABSOLUTE);
    assertEquals(sizes.length, read.records().size());
    for (int i = 0; i < sizes.length; i++) {
      assertArrayEquals(records.get(i), read.records().get(i), "record " + i);
    }
    assertEquals(size, read.validLength());
  }

  @Test
  void emptyFileIsAnEmptyLog() throws IOException {
    Path path = dir.resolve("empty.log");
    LogTesting.writeLog(path, List.of());
    for (RecoveryMode mode : RecoveryMode.values()) {
      ReadResult read = readAll(path, mode);
      assertEquals(0, read.records().size());
      assertEquals(0, read.validLength());
      assertFalse(read.tornTail());
      assertEquals(0, read.droppedBytes());
    }
  }

  // ---------------------------------------------------------------- torn tails

  /** Cuts the file at each given offset inside the last record and checks all three modes. */
  private void checkCuts(Path path, List<byte[]> prefix, byte[] last, TreeSet<Long> cuts) throws IOException {
    List<byte[]> all = new ArrayList<>(prefix);
    all.add(last);
    LogTesting.writeLog(path, all);
    byte[] original = bytes(path);
    List<Integer> lengths = all.stream().map(b -> b.length).toList();
    List<Placed> model = layout(0, lengths);
    long prevEnd = prefix.isEmpty() ? 0 : model.get(prefix.size() - 1).end();
    long end = model.get(prefix.size()).end();
    assertEquals(end, original.length);
    int tornCount = 0;
    for (long cut : cuts.descendingSet()) {
      assertTrue(cut > prevEnd && cut < end);
      LogTesting.truncate(path, cut);
      boolean expectTorn = !allZero(original, prevEnd, cut);
      tornCount += expectTorn ? 1 : 0;
      for (RecoveryMode mode : List.of(TOLERATE, SKIP)) {
        ReadResult read = readAll(path, mode);
        String where = mode + " cut at " + cut + " (last record " + prevEnd + ".." + end + ")";
        assertEquals(prefix.size(), read.records().size(), where);
        for (int i = 0; i < prefix.size(); i++) {
          assertArrayEquals(prefix.get(i), read.records().get(i), where);
        }
        assertEquals(prevEnd, read.validLength(), where);
        assertEquals(expectTorn, read.tornTail(), where);
        assertEquals(expectTorn ? cut - prevEnd : 0, read.droppedBytes(), where);
      }
      if (expectTorn) {
        WalCorruptionException e = assertThrows(WalCorruptionException.class, () -> readAll(path, ABSOLUTE), "cut at " + cut);
        assertEquals(path, e.path());
        assertTrue(e.offset() >= prevEnd && e.offset() <= cut, "offset " + e.offset() + " for cut " + cut);
        assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
      } else {
        assertEquals(prefix.size(), readAll(path, ABSOLUTE).records().size());
      }
    }
    assertTrue(tornCount > cuts.size() / 2, "most cuts leave a torn record");
  }

  private static List<byte[]> prefixRecords() {
    return List.of(payload(1, 100), payload(2, 40_000), new byte[0], payload(3, 7));
  }

  @Test
  void tornSmallLastRecordAtEveryCut() throws IOException {
    byte[] last = payload(9, 300);
    List<byte[]> prefix = prefixRecords();
    long prevEnd = layout(0, prefix.stream().map(b -> b.length).toList()).get(prefix.size() - 1).end();
    TreeSet<Long> cuts = new TreeSet<>();
    for (long c = prevEnd + 1; c < prevEnd + HEADER_SIZE + 300; c++) {
      cuts.add(c);
    }
    checkCuts(dir.resolve("torn-small.log"), prefix, last, cuts);
  }

  @Test
  void tornMultiBlockLastRecordAtManyCuts() throws IOException {
    byte[] last = payload(10, 100_000);
    List<byte[]> prefix = prefixRecords();
    List<Integer> lengths = new ArrayList<>(prefix.stream().map(b -> b.length).toList());
    lengths.add(last.length);
    List<Placed> model = layout(0, lengths);
    long prevEnd = model.get(prefix.size() - 1).end();
    long end = model.get(prefix.size()).end();
    TreeSet<Long> cuts = new TreeSet<>();
    for (long c = prevEnd + 1; c < end; c += 97) {
      cuts.add(c);
    }
    for (Fragment f : model.get(prefix.size()).fragments()) {
      // Around each header and each fragment end (block boundaries included).
      for (long c = f.offset() - 9; c <= f.offset() + 9; c++) {
        cuts.add(c);
      }
      for (long c = f.end() - 9; c <= f.end() + 9; c++) {
        cuts.add(c);
      }
    }
    cuts.removeIf(c -> c <= prevEnd || c >= end);
    checkCuts(dir.resolve("torn-big.log"), prefix, last, cuts);
  }

  @Test
  void tornRecordThatStartsAfterABlockTrailer() throws IOException {
    // The prefix ends 3 bytes before the end of block 0, so the last record's write starts with a
    // 3-byte zero trailer: cuts inside the trailer leave only zeros (a clean end).
    List<byte[]> prefix = List.of(payload(1, BLOCK_SIZE - HEADER_SIZE - 3));
    byte[] last = payload(2, 50);
    long prevEnd = BLOCK_SIZE - 3;
    TreeSet<Long> cuts = new TreeSet<>();
    for (long c = prevEnd + 1; c < BLOCK_SIZE + HEADER_SIZE + 50; c++) {
      cuts.add(c);
    }
    checkCuts(dir.resolve("torn-trailer.log"), prefix, last, cuts);
  }

  @Test
  void tornTailFollowedByZerosIsStillATornTail() throws IOException {
    Path path = dir.resolve("torn-zeros.log");
    List<byte[]> records = List.of(payload(1, 5_000), payload(2, 100_000));
    LogTesting.writeLog(path, records);
    long prevEnd = HEADER_SIZE + 5_000;
    LogTesting.truncate(path, 50_000); // inside the second record's MIDDLE fragment
    LogTesting.appendZeros(path, 70_000);
    long fileSize = bytes(path).length;
    for (RecoveryMode mode : List.of(TOLERATE, SKIP)) {
      ReadResult read = readAll(path, mode);
      assertEquals(1, read.records().size());
      assertArrayEquals(records.get(0), read.records().get(0));
      assertTrue(read.tornTail(), mode.toString());
      assertEquals(prevEnd, read.validLength());
      assertEquals(fileSize - prevEnd, read.droppedBytes());
    }
    WalCorruptionException e = assertThrows(WalCorruptionException.class, () -> readAll(path, ABSOLUTE));
    assertEquals(BLOCK_SIZE, e.offset(), "the zeros where the MIDDLE fragment's bytes should continue");
  }

  @Test
  void zeroFilledTailIsACleanEnd() throws IOException {
    // Two logs: one ending mid-block, one ending 3 bytes before a block boundary.
    List<List<byte[]>> logs = List.of(
        List.of(payload(1, 10), payload(2, 70_000), payload(3, 0)),
        List.of(payload(4, 2 * BLOCK_SIZE - 2 * HEADER_SIZE - 3)));
    int[] zeroRuns = {1, 3, 6, 7, 8, 100, BLOCK_SIZE, 3 * BLOCK_SIZE + 5};
    for (int l = 0; l < logs.size(); l++) {
      for (int zeros : zeroRuns) {
        Path path = dir.resolve("zeros-" + l + "-" + zeros + ".log");
        List<byte[]> records = logs.get(l);
        long size = LogTesting.writeLog(path, records);
        LogTesting.appendZeros(path, zeros);
        for (RecoveryMode mode : RecoveryMode.values()) {
          ReadResult read = readAll(path, mode);
          String where = mode + " log " + l + " + " + zeros + " zeros";
          assertEquals(records.size(), read.records().size(), where);
          for (int i = 0; i < records.size(); i++) {
            assertArrayEquals(records.get(i), read.records().get(i), where);
          }
          assertFalse(read.tornTail(), where);
          assertEquals(0, read.droppedBytes(), where);
          assertEquals(size, read.validLength(), where);
        }
        // A writer continues over the zeros.
        byte[] more = payload(99, 40_000);
        try (LogWriter w = new LogWriter(FS.open(path, Fs.Mode.WRITE), path, size)) {
          w.addRecord(more);
        }
        ReadResult read = readAll(path, ABSOLUTE);
        assertEquals(records.size() + 1, read.records().size());
        assertArrayEquals(more, read.records().get(records.size()));
      }
    }
  }

  // ---------------------------------------------------------------- corruption

  private static List<byte[]> mixedRecords(long seed, int count) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int pick = rnd.nextInt(10);
      int len = pick < 5 ? rnd.nextInt(0, 600) : pick < 8 ? rnd.nextInt(600, 12_000) : rnd.nextInt(30_000, 90_000);
      out.add(payload(seed * 1000 + i, len));
    }
    return out;
  }

  /** Records a salvage read should return when the fragment holding {@code bad} is damaged. */
  private static List<Integer> survivorsOfDamageAt(List<Placed> model, long bad) {
    int victim = LogTesting.recordAt(model, bad);
    long resume = nextBlockStart(bad);
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < model.size(); i++) {
      if (i < victim || model.get(i).start() >= resume) {
        out.add(i);
      }
    }
    return out;
  }

  /** Bytes a salvage read should drop when the fragment holding {@code bad} is damaged. */
  private static long droppedForDamageAt(List<Placed> model, long bad) {
    int victim = LogTesting.recordAt(model, bad);
    long resume = nextBlockStart(bad);
    long dropped = resume - (victim == 0 ? 0 : model.get(victim - 1).end()); // from the last good record
    for (Placed p : model) {
      if (p.start() < resume) {
        for (Fragment f : p.fragments()) {
          if (f.offset() >= resume) {
            dropped += f.end() - f.offset(); // pieces of dropped records after the resync point
          }
        }
      }
    }
    return dropped;
  }

  @Test
  void flippedByteBeforeValidRecordsIsCorruption() throws IOException {
    Path path = dir.resolve("flip.log");
    List<byte[]> records = mixedRecords(5, 60);
    LogTesting.writeLog(path, records);
    byte[] original = bytes(path);
    List<Placed> model = layout(0, records.stream().map(b -> b.length).toList());

    // Victims: the first record, and the first FULL, FIRST, MIDDLE and LAST fragments after it
    // that lie in the first half of the file.
    List<Fragment> victims = new ArrayList<>(List.of(model.get(0).fragments().get(0)));
    for (int type : new int[] {FULL_TYPE, FIRST_TYPE, MIDDLE_TYPE, LAST_TYPE}) {
      Fragment found = model.stream().skip(1).flatMap(p -> p.fragments().stream())
          .filter(f -> f.type() == type && f.length() > 2).findFirst().orElseThrow();
      assertTrue(found.end() < original.length / 2, "victim early in the log");
      victims.add(found);
    }
    int[] masks = {0x01, 0x80, 0xFF, 0x10};
    int checked = 0;
    for (Fragment victim : victims) {
      List<Long> positions = new ArrayList<>();
      for (int h = 0; h < HEADER_SIZE; h++) {
        positions.add(victim.offset() + h); // checksum, length and type bytes
      }
      positions.add(victim.offset() + HEADER_SIZE);
      positions.add(victim.offset() + HEADER_SIZE + victim.length() / 2);
      positions.add(victim.end() - 1);
      for (long pos : positions) {
        byte[] damaged = original.clone();
        damaged[(int) pos] ^= (byte) masks[(int) (pos % masks.length)];
        LogTesting.put(path, damaged);
        String where = "byte " + pos + " of the " + LogFormat.typeName(victim.type()) + " fragment at " + victim.offset();

        for (RecoveryMode mode : List.of(TOLERATE, ABSOLUTE)) {
          List<byte[]> before = new ArrayList<>();
          WalCorruptionException e = assertThrows(WalCorruptionException.class, () -> {
            try (LogReader r = new LogReader(FS.open(path, Fs.Mode.READ), path, mode)) {
              for (byte[] rec; (rec = r.next()) != null; ) {
                before.add(rec);
              }
            }
          }, mode + " " + where);
          assertEquals(victim.offset(), e.offset(), mode + " " + where);
          assertEquals(path, e.path());
          assertTrue(e.getMessage().contains(path.toString()) && e.getMessage().contains("offset " + victim.offset()),
              e.getMessage());
          int victimRecord = LogTesting.recordAt(model, pos);
          assertEquals(victimRecord, before.size(), "every record before the damage, then the error: " + where);
          for (int i = 0; i < before.size(); i++) {
            assertArrayEquals(records.get(i), before.get(i), where);
          }
        }

        ReadResult salvage = readAll(path, SKIP);
        List<Integer> expected = survivorsOfDamageAt(model, pos);
        assertEquals(expected.size(), salvage.records().size(), where);
        for (int i = 0; i < expected.size(); i++) {
          assertArrayEquals(records.get(expected.get(i)), salvage.records().get(i), where + ", survivor " + expected.get(i));
        }
        assertTrue(expected.size() < records.size());
        assertTrue(salvage.droppedBytes() > 0, where);
        assertEquals(droppedForDamageAt(model, pos), salvage.droppedBytes(), where);
        assertFalse(salvage.tornTail(), where);
        assertEquals(original.length, salvage.validLength(), where);
        checked++;
      }
    }
    assertEquals(5 * 10, checked);
  }

  @Test
  void zeroedPageInTheMiddleIsCorruption() throws IOException {
    Path path = dir.resolve("hole.log");
    List<byte[]> records = mixedRecords(6, 80);
    LogTesting.writeLog(path, records);
    byte[] damaged = bytes(path);
    List<Placed> model = layout(0, records.stream().map(b -> b.length).toList());
    long holeStart = 40_960;
    long holeEnd = holeStart + 4096; // one page the OS never wrote
    for (long i = holeStart; i < holeEnd; i++) {
      damaged[(int) i] = 0;
    }
    LogTesting.put(path, damaged);
    Fragment hit = LogTesting.fragmentAt(model, holeStart);
    assertNotNull(hit);
    for (RecoveryMode mode : List.of(TOLERATE, ABSOLUTE)) {
      WalCorruptionException e = assertThrows(WalCorruptionException.class, () -> readAll(path, mode));
      assertEquals(hit.offset(), e.offset(), mode.toString());
    }
    ReadResult salvage = readAll(path, SKIP);
    List<Integer> expected = survivorsOfDamageAt(model, holeStart);
    assertEquals(nextBlockStart(holeStart), nextBlockStart(holeEnd - 1), "the hole is inside one block");
    assertEquals(expected.size(), salvage.records().size());
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(records.get(expected.get(i)), salvage.records().get(i));
    }
    assertEquals(droppedForDamageAt(model, holeStart), salvage.droppedBytes());
  }

  @Test
  void checksumFailureFollowedByRecordsInTheSameBlock() throws IOException {
    Path path = dir.resolve("same-block.log");
    byte[] a = payload(1, 100);
    byte[] b = payload(2, 200);
    byte[] c = payload(3, 300);
    LogTesting.writeLog(path, List.of(a, b, c));
    byte[] damaged = bytes(path);
    long bAt = HEADER_SIZE + 100;
    damaged[(int) bAt + HEADER_SIZE + 50] ^= 0x04; // a payload byte of b
    LogTesting.put(path, damaged);

    WalCorruptionException e = assertThrows(WalCorruptionException.class, () -> readAll(path, TOLERATE));
    assertEquals(bAt, e.offset(), "c, after b in the same block, makes this corruption");
    assertThrows(WalCorruptionException.class, () -> readAll(path, ABSOLUTE));
    ReadResult salvage = readAll(path, SKIP);
    assertEquals(1, salvage.records().size(), "the rest of the damaged block is dropped");
    assertArrayEquals(a, salvage.records().get(0));
    assertFalse(salvage.tornTail());
    assertEquals(damaged.length - bAt, salvage.droppedBytes());

    // Without c, the damaged b is the last thing in the log: a torn tail.
    LogTesting.truncate(path, bAt + HEADER_SIZE + 200);
    for (RecoveryMode mode : List.of(TOLERATE, SKIP)) {
      ReadResult read = readAll(path, mode);
      assertEquals(1, read.records().size());
      assertTrue(read.tornTail());
      assertEquals(bAt, read.validLength());
      assertEquals(HEADER_SIZE + 200, read.droppedBytes());
    }
  }

  @Test
  void fragmentsOutOfSequence() throws IOException {
    byte[] ab = "ab".getBytes(StandardCharsets.US_ASCII);
    byte[] xyz = "xyz".getBytes(StandardCharsets.US_ASCII);
    byte[] tail = "tail".getBytes(StandardCharsets.US_ASCII);

    // A FIRST whose record never ends, then a FULL record.
    Path p1 = dir.resolve("seq1.log");
    LogTesting.put(p1, concat(fragment(FIRST_TYPE, ab), fragment(FULL_TYPE, xyz)));
    assertEquals(HEADER_SIZE + 2, assertThrows(WalCorruptionException.class, () -> readAll(p1, TOLERATE)).offset());
    assertEquals(HEADER_SIZE + 2, assertThrows(WalCorruptionException.class, () -> readAll(p1, ABSOLUTE)).offset());
    ReadResult s1 = readAll(p1, SKIP);
    assertEquals(1, s1.records().size());
    assertArrayEquals(xyz, s1.records().get(0));
    assertEquals(HEADER_SIZE + 2, s1.droppedBytes());
    assertEquals(2 * HEADER_SIZE + 5, s1.validLength());

    // A LAST without its start, then a FULL record.
    Path p2 = dir.resolve("seq2.log");
    LogTesting.put(p2, concat(fragment(LAST_TYPE, ab), fragment(FULL_TYPE, xyz), fragment(MIDDLE_TYPE, tail), fragment(FULL_TYPE, ab)));
    assertEquals(0, assertThrows(WalCorruptionException.class, () -> readAll(p2, TOLERATE)).offset());
    ReadResult s2 = readAll(p2, SKIP);
    assertEquals(2, s2.records().size());
    assertArrayEquals(xyz, s2.records().get(0));
    assertArrayEquals(ab, s2.records().get(1));
    assertEquals(2 * HEADER_SIZE + 2 + 4, s2.droppedBytes());

    // A FULL record, then an orphaned MIDDLE and nothing valid: a torn tail.
    Path p3 = dir.resolve("seq3.log");
    LogTesting.put(p3, concat(fragment(FULL_TYPE, xyz), fragment(MIDDLE_TYPE, tail)));
    ReadResult t3 = readAll(p3, TOLERATE);
    assertEquals(1, t3.records().size());
    assertTrue(t3.tornTail());
    assertEquals(HEADER_SIZE + 3, t3.validLength());
    assertEquals(HEADER_SIZE + 4, t3.droppedBytes());
    assertEquals(HEADER_SIZE + 3, assertThrows(WalCorruptionException.class, () -> readAll(p3, ABSOLUTE)).offset());

    // A record whose FIRST is valid but whose LAST never arrives before the end: torn.
    Path p4 = dir.resolve("seq4.log");
    LogTesting.put(p4, concat(fragment(FULL_TYPE, xyz), fragment(FIRST_TYPE, ab), fragment(MIDDLE_TYPE, tail)));
    ReadResult t4 = readAll(p4, TOLERATE);
    assertEquals(1, t4.records().size());
    assertTrue(t4.tornTail());
    assertEquals(2 * HEADER_SIZE + 6, t4.droppedBytes());
    assertEquals(HEADER_SIZE + 3, assertThrows(WalCorruptionException.class, () -> readAll(p4, ABSOLUTE)).offset());
  }

  @Test
  void nonZeroBlockTrailerFailsOnlyAbsoluteConsistency() throws IOException {
    Path path = dir.resolve("trailer.log");
    List<byte[]> records = List.of(payload(1, BLOCK_SIZE - HEADER_SIZE - 3), payload(2, 10));
    LogTesting.writeLog(path, records);
    byte[] damaged = bytes(path);
    assertTrue(allZero(damaged, BLOCK_SIZE - 3, BLOCK_SIZE));
    damaged[BLOCK_SIZE - 2] = 0x5A;
    LogTesting.put(path, damaged);
    assertEquals(BLOCK_SIZE - 3, assertThrows(WalCorruptionException.class, () -> readAll(path, ABSOLUTE)).offset());
    for (RecoveryMode mode : List.of(TOLERATE, SKIP)) {
      ReadResult read = readAll(path, mode);
      assertEquals(2, read.records().size());
      assertArrayEquals(records.get(1), read.records().get(1));
      assertEquals(0, read.droppedBytes());
      assertFalse(read.tornTail());
    }
  }

  @Test
  void afterAnErrorNextThrowsAgain() throws IOException {
    Path path = dir.resolve("sticky.log");
    LogTesting.writeLog(path, List.of(payload(1, 50), payload(2, 50_000), payload(3, 10)));
    byte[] damaged = bytes(path);
    damaged[HEADER_SIZE + 10] ^= 1; // the first record's payload
    LogTesting.put(path, damaged);
    try (LogReader r = new LogReader(FS.open(path, Fs.Mode.READ), path, TOLERATE)) {
      WalCorruptionException first = assertThrows(WalCorruptionException.class, r::next);
      WalCorruptionException second = assertThrows(WalCorruptionException.class, r::next);
      assertSame(first, second);
      assertEquals(0, first.offset());
      assertEquals(0, r.validLength());
    }
  }
}
