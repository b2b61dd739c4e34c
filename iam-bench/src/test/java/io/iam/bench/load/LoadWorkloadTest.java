package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import site.ycsb.Utils;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

class LoadWorkloadTest {

  private static final int N = 100_000;

  /** YCSB's own key builder, reachable from a subclass. */
  private static final class YcsbKeys extends CoreWorkload {
    String key(long n) {
      return buildKeyName(n);
    }
  }

  @Test
  void hashedKeysAreYcsbsForEveryRecordNumber() throws Exception {
    Properties p = new Properties();
    p.setProperty("recordcount", Integer.toString(N));
    p.setProperty("insertorder", "hashed");
    Measurements.setProperties(p);
    YcsbKeys ycsb = new YcsbKeys();
    ycsb.init(p);

    for (long n = 0; n < N; n++) {
      assertEquals(ycsb.key(n), LoadWorkload.keyName(n, KeyOrder.HASH), "record " + n);
      assertEquals(Utils.hash(n), LoadWorkload.fnvhash64(n), "record " + n);
    }
    for (long n : new long[] {Long.MAX_VALUE, -1, 1L << 40, 123_456_789_012L}) {
      assertEquals(Utils.hash(n), LoadWorkload.fnvhash64(n), "value " + n);
    }
  }

  @Test
  void knownKeysComputedWithYcsb() {
    // Values printed by site.ycsb.Utils.hash of YCSB core 0.17.0.
    assertEquals("user6284781860667377211", LoadWorkload.keyName(0, KeyOrder.HASH));
    assertEquals("user8517097267634966620", LoadWorkload.keyName(1, KeyOrder.HASH));
    assertEquals("user55488592825689361", LoadWorkload.keyName(42, KeyOrder.HASH));
    assertEquals("user2744965632448235251", LoadWorkload.keyName(999_999, KeyOrder.HASH));
  }

  @Test
  void hashedKeysAreDeterministicAndDistinct() {
    LoadWorkload a = new LoadWorkload(N, 16, KeyOrder.HASH, 1);
    LoadWorkload b = new LoadWorkload(N, 16, KeyOrder.HASH, 2);
    Set<String> seen = new HashSet<>();
    boolean outOfOrder = false;
    String previous = "";
    for (long n = 0; n < N; n++) {
      byte[] key = a.key(n);
      assertArrayEquals(key, b.key(n), "keys do not depend on the seed");
      String s = new String(key, StandardCharsets.US_ASCII);
      assertTrue(s.startsWith("user"), s);
      assertTrue(seen.add(s), "duplicate key " + s + " at record " + n);
      outOfOrder |= s.compareTo(previous) < 0;
      previous = s;
    }
    assertEquals(N, seen.size());
    assertTrue(outOfOrder, "hashed keys do not arrive sorted");
  }

  @Test
  void sequentialKeysArePaddedAndSortInInsertOrder() {
    LoadWorkload w = new LoadWorkload(N, 16, KeyOrder.SEQUENTIAL, 1);
    assertEquals("user0000000000000000000", LoadWorkload.keyName(0, KeyOrder.SEQUENTIAL));
    assertEquals("user0000000000000012345", LoadWorkload.keyName(12_345, KeyOrder.SEQUENTIAL));
    assertEquals("user9223372036854775807", LoadWorkload.keyName(Long.MAX_VALUE, KeyOrder.SEQUENTIAL));
    String previous = null;
    for (long n = 0; n < N; n++) {
      String s = new String(w.key(n), StandardCharsets.US_ASCII);
      assertEquals(23, s.length(), s);
      if (previous != null) {
        assertTrue(previous.compareTo(s) < 0, previous + " then " + s);
      }
      previous = s;
    }
  }

  @Test
  void valuesFollowTheSeedAndDoNotCompress() {
    LoadWorkload a = new LoadWorkload(10, 1024, KeyOrder.HASH, 7);
    LoadWorkload same = new LoadWorkload(10, 1024, KeyOrder.HASH, 7);
    LoadWorkload other = new LoadWorkload(10, 1024, KeyOrder.HASH, 8);
    byte[] first = a.nextValue();
    byte[] second = a.nextValue();
    assertEquals(1024, first.length);
    byte[] expected = new byte[1024];
    new SplittableRandom(7).nextBytes(expected);
    assertArrayEquals(expected, first, "the bytes SplittableRandom gives for the seed");
    assertArrayEquals(first, same.nextValue());
    assertArrayEquals(second, same.nextValue());
    assertFalse(Arrays.equals(first, second), "each record gets a new value");
    assertFalse(Arrays.equals(first, other.nextValue()), "another seed, other values");

    byte[] many = new byte[64 * 1024];
    LoadWorkload big = new LoadWorkload(64, 1024, KeyOrder.HASH, 3);
    for (int i = 0; i < 64; i++) {
      System.arraycopy(big.nextValue(), 0, many, i * 1024, 1024);
    }
    Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
    deflater.setInput(many);
    deflater.finish();
    byte[] out = new byte[many.length * 2];
    int compressed = deflater.deflate(out);
    deflater.end();
    assertTrue(compressed >= many.length, "deflate shrank 64 KiB of values to " + compressed + " bytes");
  }

  @Test
  void oneWriterDrawsTheValuesOfTheWorkloadsOwnStream() {
    LoadWorkload one = new LoadWorkload(100, 64, KeyOrder.HASH, 7, 1);
    LoadWorkload plain = new LoadWorkload(100, 64, KeyOrder.HASH, 7);
    List<LoadWorkload.Values> values = one.writerValues();

    assertEquals(1, values.size());
    for (int i = 0; i < 100; i++) {
      assertArrayEquals(plain.nextValue(), values.get(0).next(), "value " + i);
    }
  }

  @Test
  void severalWritersDrawValuesOfTheirOwnFromTheSeed() {
    List<LoadWorkload.Values> a = new LoadWorkload(100, 64, KeyOrder.HASH, 7, 3).writerValues();
    List<LoadWorkload.Values> same = new LoadWorkload(100, 64, KeyOrder.HASH, 7, 3).writerValues();
    List<LoadWorkload.Values> otherSeed = new LoadWorkload(100, 64, KeyOrder.HASH, 8, 3).writerValues();
    byte[] oneWritersFirst = new LoadWorkload(100, 64, KeyOrder.HASH, 7).nextValue();

    assertEquals(3, a.size());
    byte[][] firsts = new byte[3][];
    for (int w = 0; w < 3; w++) {
      firsts[w] = a.get(w).next();
      assertEquals(64, firsts[w].length);
      assertFalse(Arrays.equals(firsts[w], oneWritersFirst), "writer " + w + " has a stream of its own");
      assertFalse(Arrays.equals(firsts[w], otherSeed.get(w).next()), "writer " + w + ": another seed, other values");
    }
    // Drawn in the other order, each writer still gets the same values: the streams do not share state.
    for (int w = 2; w >= 0; w--) {
      assertArrayEquals(firsts[w], same.get(w).next(), "writer " + w + ": the same seed, the same values");
    }
    assertFalse(Arrays.equals(firsts[0], firsts[1]) || Arrays.equals(firsts[1], firsts[2]), "streams of their own");
    assertThrows(IllegalArgumentException.class, () -> new LoadWorkload(100, 64, KeyOrder.HASH, 7, 0));
  }

  @Test
  void orderNamesParseAndRejectOthers() {
    assertEquals(KeyOrder.HASH, KeyOrder.parse("hash"));
    assertEquals(KeyOrder.SEQUENTIAL, KeyOrder.parse("Sequential"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KeyOrder.parse("zipf"));
    assertTrue(e.getMessage().contains("hash, sequential"), e.getMessage());
  }

  @Test
  void randomOrderDrawsRecordsWithRepeatsAndCountsEachLiveKeyOnce() {
    int n = 20_000;
    LoadWorkload w = new LoadWorkload(n, 100, KeyOrder.RANDOM, 7);
    LoadWorkload again = new LoadWorkload(n, 100, KeyOrder.RANDOM, 7);
    LoadWorkload otherSeed = new LoadWorkload(n, 100, KeyOrder.RANDOM, 8);
    Set<String> hashedKeys = new HashSet<>();
    for (long r = 0; r < n; r++) {
      hashedKeys.add(LoadWorkload.keyName(r, KeyOrder.HASH));
    }
    Set<String> distinct = new HashSet<>();
    long live = 0;
    int differ = 0;
    for (long i = 0; i < n; i++) {
      String key = new String(w.key(i), StandardCharsets.US_ASCII);
      assertEquals(key, new String(again.key(i), StandardCharsets.US_ASCII), "deterministic for a seed");
      assertTrue(hashedKeys.contains(key), "a hashed key of a record in range: " + key);
      differ += key.equals(new String(otherSeed.key(i), StandardCharsets.US_ASCII)) ? 0 : 1;
      if (distinct.add(key)) {
        live += key.length() + 100;
      }
    }
    assertEquals(live, w.liveBytes(), "each distinct key once, with its value");
    // n draws from n records leave about 1 - 1/e of them: 12,642 expected.
    assertTrue(distinct.size() > 12_300 && distinct.size() < 13_000, "distinct keys: " + distinct.size());
    assertTrue(differ > n * 9 / 10, "another seed draws other records: " + differ);
    assertThrows(IllegalArgumentException.class,
        () -> new LoadWorkload(Integer.MAX_VALUE + 1L, 100, KeyOrder.RANDOM, 7));
  }
}
