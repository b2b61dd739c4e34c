package io.iam.core.wal;

import static io.iam.core.wal.LogFormat.nextBlockStart;
import static io.iam.core.wal.LogTesting.FS;
import static io.iam.core.wal.LogTesting.allZero;
import static io.iam.core.wal.LogTesting.layout;
import static io.iam.core.wal.LogTesting.payload;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.Fs;
import io.iam.core.wal.LogTesting.Placed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random damage (flipped bytes, zeroed ranges, garbage, truncation, truncation plus zeros) against
 * every recovery mode. Whatever the damage, no record comes back with wrong content, the records
 * before the damage come back, and each mode draws the line between torn tail and corruption as
 * documented.
 */
class LogDamageFuzzTest {

  @TempDir Path dir;

  private record Outcome(List<byte[]> records, WalCorruptionException error, boolean torn, long dropped, long validLength) {}

  private static Outcome read(Path path, RecoveryMode mode) throws IOException {
    List<byte[]> out = new ArrayList<>();
    try (LogReader r = new LogReader(FS.open(path, Fs.Mode.READ), path, mode)) {
      try {
        for (byte[] rec; (rec = r.next()) != null; ) {
          out.add(rec);
        }
      } catch (WalCorruptionException e) {
        assertEquals(path, e.path());
        assertTrue(e.getMessage().contains(path.toString()) && e.getMessage().contains("offset " + e.offset()), e.getMessage());
        return new Outcome(out, e, r.tornTail(), r.droppedBytes(), r.validLength());
      }
      return new Outcome(out, null, r.tornTail(), r.droppedBytes(), r.validLength());
    }
  }

  private static List<byte[]> randomLog(SplittableRandom rnd, long seed) {
    int n = rnd.nextInt(15, 31);
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int pick = rnd.nextInt(10);
      int len = pick < 4 ? rnd.nextInt(0, 200) : pick < 7 ? rnd.nextInt(200, 5_000) : pick < 9 ? rnd.nextInt(5_000, 40_000) : rnd.nextInt(40_000, 120_000);
      out.add(payload(seed * 100 + i, len));
    }
    return out;
  }

  /** Asserts {@code got} is the first {@code got.size()} of {@code all}. */
  private static void assertPrefix(List<byte[]> all, List<byte[]> got, String where) {
    assertTrue(got.size() <= all.size(), where);
    for (int i = 0; i < got.size(); i++) {
      assertArrayEquals(all.get(i), got.get(i), where + ": record " + i);
    }
  }

  /** Asserts {@code got} is {@code all} with some records left out, order kept; returns the indices. */
  private static List<Integer> assertSubsequence(List<byte[]> all, List<byte[]> got, String where) {
    List<Integer> indices = new ArrayList<>();
    int j = 0;
    for (byte[] g : got) {
      while (j < all.size() && !Arrays.equals(all.get(j), g)) {
        j++;
      }
      assertTrue(j < all.size(), where + ": a returned record is not an original one, in order");
      indices.add(j++);
    }
    return indices;
  }

  @Test
  void randomDamageNeverYieldsWrongRecords() throws IOException {
    SplittableRandom rnd = new SplittableRandom(4242);
    Path path = dir.resolve("fuzz.log");
    List<byte[]> records = null;
    byte[] original = null;
    List<Placed> model = null;
    int throwsTolerate = 0;
    int torn = 0;
    for (int trial = 0; trial < 400; trial++) {
      if (trial % 20 == 0) {
        records = randomLog(rnd, trial);
        java.nio.file.Files.deleteIfExists(path);
        LogTesting.writeLog(path, records);
        original = LogTesting.bytes(path);
        model = layout(0, records.stream().map(b -> b.length).toList());
      }
      int kind = rnd.nextInt(6);
      String where = "trial " + trial + " kind " + kind;
      byte[] damaged = original.clone();
      if (kind == 0 || kind == 1) {
        int flips = kind == 0 ? 1 : rnd.nextInt(2, 5);
        for (int f = 0; f < flips; f++) {
          damaged[rnd.nextInt(damaged.length)] ^= (byte) rnd.nextInt(1, 256);
        }
      } else if (kind == 2 || kind == 3) {
        int from = rnd.nextInt(damaged.length);
        int to = rnd.nextInt(4) == 0 ? damaged.length : Math.min(damaged.length, from + rnd.nextInt(1, 5_000));
        for (int i = from; i < to; i++) {
          damaged[i] = kind == 2 ? 0 : (byte) rnd.nextInt(256);
        }
      }

      if (kind <= 3) {
        LogTesting.put(path, damaged);
        checkSameLengthDamage(path, records, original, damaged, model, where);
        Outcome t = read(path, RecoveryMode.TOLERATE_CORRUPTED_TAIL);
        throwsTolerate += t.error() != null ? 1 : 0;
        torn += t.torn() ? 1 : 0;
      } else {
        int cut = rnd.nextInt(original.length);
        byte[] cutFile = Arrays.copyOf(original, cut);
        int zeros = kind == 5 ? rnd.nextInt(1, 40_000) : 0;
        LogTesting.put(path, Arrays.copyOf(cutFile, cut + zeros));
        checkTruncation(path, records, original, model, cut, cut + zeros, where);
        torn += read(path, RecoveryMode.TOLERATE_CORRUPTED_TAIL).torn() ? 1 : 0;
      }
    }
    // The trials exercised both outcomes.
    assertTrue(throwsTolerate > 50, "corruption cases: " + throwsTolerate);
    assertTrue(torn > 50, "torn tails: " + torn);
  }

  private static void checkSameLengthDamage(Path path, List<byte[]> records, byte[] original, byte[] damaged,
      List<Placed> model, String where) throws IOException {
    long minChanged = -1;
    long maxChanged = -1;
    long maxChangedInFragment = -1;
    for (int i = 0; i < damaged.length; i++) {
      if (damaged[i] != original[i]) {
        minChanged = minChanged < 0 ? i : minChanged;
        maxChanged = i;
        if (LogTesting.fragmentAt(model, i) != null) {
          maxChangedInFragment = i;
        }
      }
    }
    if (minChanged < 0) {
      Outcome o = read(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
      assertNull(o.error(), where);
      assertEquals(records.size(), o.records().size(), where);
      return;
    }
    int intact = 0;
    long intactEnd = 0;
    while (intact < model.size() && model.get(intact).end() <= minChanged) {
      intactEnd = model.get(intact).end();
      intact++;
    }
    // Zeros from a record boundary to the end of the file read as preallocated space.
    boolean zeroTail = allZero(damaged, intactEnd, damaged.length);
    long afterLastDamage = nextBlockStart(maxChanged);
    List<Integer> undamagedTail = new ArrayList<>();
    for (int i = 0; i < model.size(); i++) {
      if (model.get(i).start() >= afterLastDamage) {
        undamagedTail.add(i);
      }
    }
    boolean recordAfterFragmentDamage = maxChangedInFragment >= 0
        && model.get(model.size() - 1).start() >= nextBlockStart(maxChangedInFragment);

    Outcome abs = read(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
    assertPrefix(records, abs.records(), where + " ABSOLUTE");
    assertTrue(abs.records().size() >= intact, where);
    if (zeroTail) {
      assertNull(abs.error(), where);
      assertEquals(intact, abs.records().size(), where);
    } else {
      assertNotNull(abs.error(), where + ": every changed byte fails ABSOLUTE_CONSISTENCY");
      assertTrue(abs.error().offset() <= maxChanged, where);
    }

    Outcome tol = read(path, RecoveryMode.TOLERATE_CORRUPTED_TAIL);
    assertPrefix(records, tol.records(), where + " TOLERATE");
    assertTrue(tol.records().size() >= intact, where);
    if (recordAfterFragmentDamage) {
      assertNotNull(tol.error(), where + ": damage followed by valid records is corruption");
      assertTrue(tol.error().offset() <= maxChangedInFragment, where);
    }
    if (maxChangedInFragment < 0) {
      assertNull(tol.error(), where + ": only block trailers changed");
      assertEquals(records.size(), tol.records().size(), where);
    }
    if (tol.error() == null) {
      long end = tol.records().isEmpty() ? 0 : model.get(tol.records().size() - 1).end();
      assertEquals(end, tol.validLength(), where);
      assertEquals(tol.records().size() < records.size(), tol.torn() || zeroTail, where);
      assertEquals(tol.torn() ? damaged.length - tol.validLength() : 0, tol.dropped(), where);
    }

    Outcome skip = read(path, RecoveryMode.SKIP_CORRUPTED_RECORDS);
    assertNull(skip.error(), where + ": salvage never throws");
    List<Integer> got = assertSubsequence(records, skip.records(), where + " SKIP");
    assertTrue(got.size() >= intact && got.subList(0, intact).equals(java.util.stream.IntStream.range(0, intact).boxed().toList()), where);
    assertTrue(got.containsAll(undamagedTail), where + ": records after the damaged blocks survive");
    if (got.size() < records.size() && !zeroTail) {
      assertTrue(skip.dropped() > 0, where);
    }
    assertTrue(skip.validLength() <= damaged.length, where);
  }

  private static void checkTruncation(Path path, List<byte[]> records, byte[] original, List<Placed> model, int cut,
      long fileLength, String where) throws IOException {
    int complete = 0;
    long prevEnd = 0;
    while (complete < model.size() && model.get(complete).end() <= cut) {
      prevEnd = model.get(complete).end();
      complete++;
    }
    boolean expectTorn = !allZero(original, prevEnd, cut);
    for (RecoveryMode mode : List.of(RecoveryMode.TOLERATE_CORRUPTED_TAIL, RecoveryMode.SKIP_CORRUPTED_RECORDS)) {
      Outcome o = read(path, mode);
      assertNull(o.error(), where + " " + mode + ": a cut file is never corrupt");
      assertEquals(complete, o.records().size(), where);
      assertPrefix(records, o.records(), where);
      assertEquals(expectTorn, o.torn(), where);
      assertEquals(prevEnd, o.validLength(), where);
      assertEquals(expectTorn ? fileLength - prevEnd : 0, o.dropped(), where);
    }
    Outcome abs = read(path, RecoveryMode.ABSOLUTE_CONSISTENCY);
    assertPrefix(records, abs.records(), where);
    assertEquals(complete, abs.records().size(), where);
    assertEquals(expectTorn, abs.error() != null, where);
    assertFalse(abs.torn(), where);
  }
}
