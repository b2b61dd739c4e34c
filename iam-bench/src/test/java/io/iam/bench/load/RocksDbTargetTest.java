package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RocksDbTargetTest {

  private static final int RECORDS = 20_000;
  private static final long MEMTABLE = 1 << 20;

  /** Puts every record of a workload, settles, returns the metrics; checks userBytes on the way. */
  private static LoadMetrics load(Path dir, KeyOrder order) throws IOException {
    LoadConfig config = LoadConfig.defaults(RocksDbTarget.NAME, MEMTABLE, 8 << 20);
    LoadWorkload w = new LoadWorkload(RECORDS, 1024, order, 42);
    long userBytes = 0;
    try (LoadTarget db = RocksDbTarget.open(dir, config)) {
      for (long n = 0; n < RECORDS; n++) {
        byte[] key = w.key(n);
        byte[] value = w.nextValue();
        db.put(key, value);
        userBytes += key.length + value.length;
      }
      db.settle();
      LoadMetrics m = db.metrics();
      assertEquals(userBytes, m.userBytes());
      return m;
    }
  }

  /** The compaction style RocksDB wrote into the OPTIONS file of a store opened under {@code name}. */
  private static String compactionStyle(Path dir, String name) throws IOException {
    try (LoadTarget db = RocksDbTarget.open(dir, LoadConfig.defaults(name, MEMTABLE, 8 << 20))) {
      db.put(new byte[] {1}, new byte[] {2});
    }
    try (Stream<Path> files = Files.list(dir)) {
      Path options = files.filter(f -> f.getFileName().toString().startsWith("OPTIONS-")).max(Path::compareTo)
          .orElseThrow();
      return Files.readAllLines(options).stream().map(String::trim)
          .filter(l -> l.startsWith("compaction_style=")).findFirst().orElseThrow();
    }
  }

  @Test
  void universalNameOpensUniversalCompaction(@TempDir Path leveled, @TempDir Path universal) throws IOException {
    assertEquals("compaction_style=kCompactionStyleLevel", compactionStyle(leveled, RocksDbTarget.NAME));
    assertEquals("compaction_style=kCompactionStyleUniversal", compactionStyle(universal, RocksDbTarget.UNIVERSAL));
  }

  @Test
  void hashedLoadIsCompactedIntoLevelsWithinTheirTargets(@TempDir Path dir) throws IOException {
    LoadMetrics m = load(dir, KeyOrder.HASH);

    SettledLoad.assertSettled(m, SettledLoad.files(dir, ".sst"), 5 * MEMTABLE);
    LevelMetrics l0 = m.levels().get(0);

    // Per-level bytes written (rocksdb.cfstats, GiB with six decimals) add up to the tickers' total.
    long levelsWritten = m.levels().stream().mapToLong(LevelMetrics::bytesWritten).sum();
    assertEquals(m.bytesWritten(), levelsWritten, 8 * 1024 * m.levels().size(), m.toString());
    assertEquals(m.flushBytes(), l0.bytesWritten(), 8 * 1024, m.toString());
    double levelsAmp = m.levels().stream().mapToDouble(LevelMetrics::writeAmplification).sum();
    assertEquals(m.writeAmplification(), levelsAmp, 0.01);
  }

  @Test
  void sequentialKeysAreMovedRatherThanMerged(@TempDir Path hashed, @TempDir Path sequential)
      throws IOException {
    LoadMetrics random = load(hashed, KeyOrder.HASH);
    LoadMetrics sorted = load(sequential, KeyOrder.SEQUENTIAL);

    // Sorted runs do not overlap, so RocksDB moves files down instead of rewriting them.
    assertTrue(sorted.compactionBytesWritten() < random.compactionBytesWritten() / 2,
        "sequential " + sorted + " vs hashed " + random);
    assertTrue(sorted.writeAmplification() >= 1, sorted.toString());
  }

  @Test
  void getsAndScansSeeTheNewestValuesInKeyOrder(@TempDir Path dir) throws IOException {
    ReadsAndScans.check(RocksDbTarget::open, RocksDbTarget.NAME, dir);
  }

  @Test
  void itsOnlyEnginePropertyIsTheTimeWritersStalled(@TempDir Path dir) throws IOException {
    try (LoadTarget db = RocksDbTarget.open(dir, LoadConfig.defaults(RocksDbTarget.NAME, MEMTABLE, 1 << 20))) {
      db.put("user1".getBytes(), new byte[100]);
      Map<String, Number> p = db.properties();
      assertEquals(java.util.Set.of(EngineCounters.STALL_MICROS), p.keySet());
      assertTrue(p.get(EngineCounters.STALL_MICROS).longValue() >= 0);
      assertEquals(p, EngineCounters.of(p).values());
    }
  }

  @Test
  void writtenBytesReadTheCfstatsMap() {
    Map<String, String> stats = Map.of("compaction.L0.WriteGB", "0.019802", "compaction.L2.WriteGB", "1.000000");

    assertEquals(21_262_236, RocksDbTarget.writtenBytes(stats, 0));
    assertEquals(1L << 30, RocksDbTarget.writtenBytes(stats, 2));
    assertEquals(0, RocksDbTarget.writtenBytes(stats, 1));
  }

  @Test
  void openingAnExistingDatabaseFails(@TempDir Path dir) throws IOException {
    LoadConfig config = LoadConfig.defaults(RocksDbTarget.NAME, MEMTABLE, 1 << 20);
    try (LoadTarget db = RocksDbTarget.open(dir, config)) {
      db.put(new byte[] {1}, new byte[] {2});
    }

    IOException e = assertThrows(IOException.class, () -> RocksDbTarget.open(dir, config).close());
    assertTrue(e.getMessage().startsWith("rocksdb: open " + dir + " failed"), e.getMessage());
  }
}
