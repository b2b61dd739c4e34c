package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link LoadTarget#scanRange}: the default paging over scan, and the built-in stores' own. */
class ScanRangeTest {

  private static final int KEYS = 2000;

  /** Key n: n·2 as 4 big-endian bytes, so odd numbers fall between keys. */
  private static byte[] key(int n) {
    return ByteBuffer.allocate(4).putInt(n * 2).array();
  }

  private static byte[] at(int even) {
    return ByteBuffer.allocate(4).putInt(even).array();
  }

  private static void fill(LoadTarget target) throws IOException {
    for (int n = 0; n < KEYS; n++) {
      target.put(key(n), new byte[] {(byte) n});
    }
    target.settle();
  }

  /** The keys (as numbers n) a range returns, checking the count it reports. */
  private static List<Integer> range(LoadTarget target, int from, int to) throws IOException {
    List<Integer> got = new ArrayList<>();
    long count = target.scanRange(at(from), at(to), (k, v) -> got.add(ByteBuffer.wrap(k).getInt() / 2));
    assertEquals(got.size(), count);
    return got;
  }

  private static List<Integer> expected(int from, int to) {
    List<Integer> out = new ArrayList<>();
    for (int n = 0; n < KEYS; n++) {
      if (n * 2 >= from && n * 2 <= to) {
        out.add(n);
      }
    }
    return out;
  }

  private static void check(LoadTarget target) throws IOException {
    // Across several of the default's pages (64, 128, 256 …), bounds on keys and between keys.
    int[][] ranges = {{0, 0}, {10, 20}, {11, 21}, {100, 1100}, {1, 3999}, {3998, 9000}, {50, 40}, {5000, 6000}};
    for (int[] r : ranges) {
      assertEquals(expected(r[0], r[1]), range(target, r[0], r[1]), r[0] + ".." + r[1]);
    }
  }

  @Test
  void theDefaultPagesThroughScanAndStopsAtTheEnd() throws IOException {
    MapTarget target = new MapTarget();
    fill(target);
    check(target);
    assertEquals(IoCounters.NONE, target.ioCounters());
  }

  @Test
  void leveledAndRocksdbStopAtTheEndAndCountTheirIo(@TempDir Path dir) throws IOException {
    for (String name : List.of(IamStoreTarget.LEVELED, RocksDbTarget.NAME)) {
      LoadConfig config = LoadConfig.defaults(name, 64 << 10, 1 << 20);
      try (LoadTarget target = LoadTargets.open(java.nio.file.Files.createDirectories(dir.resolve(name)), config)) {
        fill(target);
        IoCounters before = target.ioCounters();
        check(target);
        IoCounters read = target.ioCounters().minus(before);
        assertTrue(before.compactions() >= 0 && before.compactionBytesRead() >= 0, name + ": " + before);
        // The data was flushed, not cached: the first range has to read a block from a file.
        assertTrue(read.dataBlockReads() > 0, name + ": " + read);
        assertEquals(0, read.compactions(), name);
      }
    }
  }

  @Test
  void unknownCountersStayUnknown() {
    IoCounters a = new IoCounters(5, IoCounters.UNKNOWN, 7);
    assertEquals(new IoCounters(3, IoCounters.UNKNOWN, 0), a.minus(new IoCounters(2, 4, 7)));
  }
}
