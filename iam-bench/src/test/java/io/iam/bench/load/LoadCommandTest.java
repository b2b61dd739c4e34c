package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void rocksdbLoadReportsJson() throws Exception {
    CliRun run = CliRun.of("load", "--tree", "rocksdb", "--records", "20000", "--memtable", "1MiB",
        "--cache", "8MiB", "--json", "--no-progress");

    assertEquals(0, run.exitCode(), run.err());
    assertEquals("", run.err());
    JsonNode r = JSON.readTree(run.lastOutLine());
    assertEquals("rocksdb", r.get("tree").asText());
    assertEquals(20000, r.get("records").asLong());
    assertEquals(1024, r.get("valueSize").asInt());
    assertEquals("hash", r.get("order").asText());
    assertTrue(r.get("writeAmplification").asDouble() >= 1, run.out());
    assertTrue(r.get("diskBytes").asLong() > 0, run.out());
    assertTrue(r.get("opsPerSecond").asDouble() > 0, run.out());
    // records over load plus settle; the JSON gives both times truncated to whole milliseconds
    double settled = r.get("settledOpsPerSecond").asDouble();
    long millis = r.get("loadMillis").asLong() + r.get("settleMillis").asLong();
    assertTrue(settled <= 20000 / (millis / 1000.0) && settled >= 20000 / ((millis + 2) / 1000.0), run.out());
    assertTrue(settled <= r.get("opsPerSecond").asDouble(), run.out());
    assertTrue(r.get("levels").size() > 0, run.out());
    assertFalse(r.has("vs"));
    assertFalse(r.has("ratios"));

    JsonNode latency = r.get("latencyMicros");
    assertTrue(latency.get("p50").asDouble() <= latency.get("p99").asDouble());
    assertTrue(latency.get("p99").asDouble() <= latency.get("p999").asDouble());
    assertTrue(latency.get("p999").asDouble() <= latency.get("max").asDouble());
    assertEquals(latency.get("p99").asDouble(), r.get("p99Micros").asDouble());

    // Keys of YCSB's hashed form average a little under 23 bytes; values are 1 KiB.
    long userBytes = r.get("userBytes").asLong();
    assertTrue(userBytes > 20000L * (1024 + 15) && userBytes <= 20000L * (1024 + 23), run.out());
    assertEquals((double) (r.get("flushBytes").asLong() + r.get("compactionBytesWritten").asLong()) / userBytes,
        r.get("writeAmplification").asDouble(), 1e-12);
    long levelBytes = 0;
    for (JsonNode level : r.get("levels")) {
      levelBytes += level.get("bytes").asLong();
      assertTrue(level.has("level") && level.has("files") && level.has("bytesWritten")
          && level.has("writeAmplification"), level.toString());
    }
    assertEquals(r.get("diskBytes").asLong(), levelBytes);
    assertEquals(1 << 20, r.get("config").get("targetFileBytes").asLong());
    assertEquals(5 << 20, r.get("config").get("levelBaseBytes").asLong());
    assertEquals(8 << 20, r.get("config").get("cacheBytes").asLong());

    assertTrue(run.out().startsWith("rocksdb: 20,000 records"), run.out());
    assertTrue(run.out().contains("write amplification"), run.out());
    assertTrue(run.out().contains("  level  files"), run.out());
    assertTrue(run.out().contains("  L0 "), run.out());
  }

  @Test
  void vsRunsTheSameLoadOnThePeerInItsOwnDirectory(@TempDir Path dir) throws Exception {
    CliRun run = CliRun.of("load", "--tree", "rocksdb", "--vs", "rocksdb", "--records", "5000",
        "--memtable", "256KiB", "--cache", "4MiB", "--json", "--no-progress", "--dir", dir.toString());

    assertEquals(0, run.exitCode(), run.err());
    JsonNode r = JSON.readTree(run.lastOutLine());
    JsonNode peer = assertPeerAndRatios(r, "rocksdb");
    assertEquals(5000, peer.get("records").asLong());
    assertTrue(peer.get("writeAmplification").asDouble() >= 1);
    assertTrue(run.out().contains("rocksdb / rocksdb: throughput "), run.out());

    // --dir keeps both stores' data, apart.
    assertTrue(countSst(dir.resolve("rocksdb")) > 0);
    assertTrue(countSst(dir.resolve("vs-rocksdb")) > 0);

    CliRun again = CliRun.of("load", "--tree", "rocksdb", "--records", "10", "--dir", dir.toString());
    assertEquals(2, again.exitCode());
    assertTrue(again.err().contains("is not empty"), again.err());
  }

  @Test
  void severalVsStoresRunSideBySideAndEngineOptionsReachTheNodeTrees() throws Exception {
    CliRun run = CliRun.of("load", "--tree", "lsa", "--vs", "leveled,iam", "--records", "3000",
        "--memtable", "64KiB", "--cache", "1MiB", "-o", "fanout=4", "-o", "mixed-level=2", "--json", "--no-progress");

    assertEquals(0, run.exitCode(), run.err());
    JsonNode r = JSON.readTree(run.lastOutLine());
    assertPeerAndRatios(r, "leveled");
    JsonNode iam = r.get("vs").get("iam");
    assertEquals(3000, iam.get("records").asLong());
    assertEquals(2, iam.get("engine").get("tree.mixed-level").asInt(), "the -o option reached the store");
    assertTrue(r.get("engine").get("tree.depth").asInt() >= 2, "fan-out 4 grows the tree: " + r.get("engine"));
    assertEquals(r.get("writeAmplification").asDouble() / iam.get("writeAmplification").asDouble(),
        r.get("ratiosVs").get("iam").get("writeAmplification").asDouble(), 1e-9);
    assertTrue(run.out().contains("lsa / leveled: ") && run.out().contains("lsa / iam: "), run.out());

    CliRun bad = CliRun.of("load", "--tree", "iam", "--records", "10", "-o", "bogus=1", "--no-progress");
    assertTrue(bad.exitCode() != 0);
    assertTrue(bad.err().contains("bogus"), bad.err());
  }

  @Test
  void temporaryDataIsDeletedUnlessKept() throws Exception {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    Set<Path> before = loadDirs(tmp);
    CliRun deleted = CliRun.of("load", "--tree", "rocksdb", "--records", "2000", "--memtable", "256KiB",
        "--no-progress");
    assertEquals(0, deleted.exitCode(), deleted.err());
    Set<Path> left = loadDirs(tmp);
    left.removeAll(before);
    assertEquals(Set.of(), left, "no data directory left behind");

    CliRun kept = CliRun.of("load", "--tree", "rocksdb", "--records", "2000", "--memtable", "256KiB",
        "--no-progress", "--keep");
    assertEquals(0, kept.exitCode(), kept.err());
    String prefix = "iam load: data kept in ";
    assertTrue(kept.err().startsWith(prefix), kept.err());
    Path keptDir = Path.of(kept.err().strip().substring(prefix.length()));
    try {
      assertTrue(countSst(keptDir.resolve("rocksdb")) > 0);
    } finally {
      deleteTree(keptDir);
    }
  }

  @Test
  void leveledLoadReportsJson(@TempDir Path dir) throws Exception {
    CliRun run = CliRun.of("load", "--tree", "leveled", "--records", "20000", "--memtable", "1MiB",
        "--cache", "8MiB", "--json", "--no-progress", "--dir", dir.toString());

    JsonNode r = succeeded(run);
    assertEquals("", run.err());
    assertEquals("leveled", r.get("tree").asText());
    assertEquals(20000, r.get("records").asLong());
    assertEquals(userBytes(20000, 1024, KeyOrder.HASH), r.get("userBytes").asLong(), "every key and value put");
    assertTrue(r.get("writeAmplification").asDouble() >= 1, run.out());
    assertTrue(r.get("compactionBytesWritten").asLong() > 0, run.out());
    assertTrue(r.get("diskBytes").asLong() > 0, run.out());
    assertTrue(r.get("levels").size() > 0, run.out());
    assertFalse(r.has("vs"));

    long userBytes = r.get("userBytes").asLong();
    long written = r.get("flushBytes").asLong() + r.get("compactionBytesWritten").asLong();
    assertEquals((double) written / userBytes, r.get("writeAmplification").asDouble(), 1e-12);
    long levelBytes = 0;
    long levelFiles = 0;
    long levelWritten = 0;
    for (JsonNode level : r.get("levels")) {
      levelBytes += level.get("bytes").asLong();
      levelFiles += level.get("files").asLong();
      levelWritten += level.get("bytesWritten").asLong();
      assertEquals((double) level.get("bytesWritten").asLong() / userBytes,
          level.get("writeAmplification").asDouble(), 1e-12, level.toString());
    }
    assertEquals(r.get("diskBytes").asLong(), levelBytes);
    assertEquals(written, levelWritten, "the engine counts bytes written per level exactly");
    assertEquals(levelFiles, SettledLoad.files(dir.resolve("leveled"), ".mst"));
    assertTrue(r.get("engineStats").asText().contains("write-amp"), r.get("engineStats").asText());

    assertTrue(run.out().startsWith("leveled: 20,000 records"), run.out());
    assertTrue(run.out().contains("  level  files"), run.out());
  }

  @Test
  void leveledVsRocksdbReportsBothAndTheRatios() throws Exception {
    CliRun run = CliRun.of("load", "--tree", "leveled", "--vs", "rocksdb", "--records", "5000",
        "--memtable", "256KiB", "--cache", "4MiB", "--json", "--no-progress");

    JsonNode r = succeeded(run);
    assertEquals("leveled", r.get("tree").asText());
    JsonNode peer = assertPeerAndRatios(r, "rocksdb");
    assertEquals("rocksdb", peer.get("tree").asText());
    assertEquals(r.get("config"), peer.get("config"), "the same budgets");
    assertTrue(peer.get("engineStats").asText().contains("Compaction Stats"), peer.get("engineStats").asText());
    assertTrue(run.out().startsWith("leveled: 5,000 records"), run.out());
    assertTrue(run.out().contains("\nrocksdb: 5,000 records"), run.out());
    assertTrue(run.out().contains("leveled / rocksdb: throughput "), run.out());
  }

  @Test
  void sequentialKeysAreMovedDownTheLeveledTreeWithoutRewrite() throws Exception {
    CliRun run = CliRun.of("load", "--tree", "leveled", "--order", "sequential", "--records", "20000",
        "--memtable", "1MiB", "--cache", "8MiB", "--json", "--no-progress");

    JsonNode r = succeeded(run);
    assertEquals("sequential", r.get("order").asText());
    double wa = r.get("writeAmplification").asDouble();
    assertTrue(wa >= 1 && wa < 1.2, run.out());
    boolean belowLevel0 = false;
    for (JsonNode level : r.get("levels")) {
      belowLevel0 |= level.get("level").asInt() > 0 && level.get("files").asInt() > 0;
    }
    assertTrue(belowLevel0, "files went down the tree: " + run.out());
  }

  @Test
  void phasesRunOnLeveledAndRocksdbAndReportEachPerStore() throws Exception {
    CliRun run = CliRun.of("load", "--tree", "leveled", "--vs", "rocksdb", "--records", "2000", "--memtable",
        "64KiB", "--cache", "1MiB", "--overwrites", "3000", "--reads", "2000", "--scans", "300", "--scan-length",
        "20", "--json", "--no-progress");

    JsonNode r = succeeded(run);
    assertEquals("", run.err());
    JsonNode peer = assertPeerAndRatios(r, "rocksdb");
    for (JsonNode store : List.of(r, peer)) {
      String tree = store.get("tree").asText();
      long live = store.get("liveBytes").asLong();
      assertEquals(userBytes(2000, 1024, KeyOrder.HASH), live, tree);
      assertSaneAmplification(store.get("spaceAmplification"), tree + " after the load");

      JsonNode o = store.get("overwrite");
      assertEquals(3000, o.get("ops").asLong(), tree);
      assertTrue(o.get("opsPerSecond").asDouble() > 0, tree);
      assertEquals(live, o.get("liveBytes").asLong(), tree + ": overwrites keep the live size");
      assertEquals(live + o.get("bytesPut").asLong(), o.get("userBytes").asLong(), tree + ": the whole run's puts");
      assertTrue(o.get("bytesPut").asLong() >= 3000L * (1024 + 15), tree);
      assertSaneAmplification(o.get("spaceAmplification"), tree + " after the overwrites");
      assertEquals((double) o.get("diskBytes").asLong() / live, o.get("spaceAmplification").asDouble(), 1e-12, tree);
      double wholeRun = o.get("writeAmplification").asDouble();
      assertTrue(wholeRun >= 1, tree + " write amplification " + wholeRun);
      assertEquals((double) (o.get("flushBytes").asLong() + o.get("compactionBytesWritten").asLong())
          / o.get("userBytes").asLong(), wholeRun, 1e-12, tree);
      assertTrue(o.get("compactionBytesWritten").asLong() > store.get("compactionBytesWritten").asLong(), tree);
      assertLatency(o.get("latencyMicros"));

      JsonNode read = store.get("read");
      assertEquals(2000, read.get("ops").asLong(), tree);
      assertEquals(2000, read.get("found").asLong(), tree + ": every read finds its key");
      assertEquals(0, read.get("misses").asLong(), tree);
      assertEquals("zipfian", read.get("distribution").asText(), tree);
      assertTrue(read.get("opsPerSecond").asDouble() > 0, tree);
      assertLatency(read.get("latencyMicros"));

      JsonNode scan = store.get("scan");
      long scans = scan.get("ops").asLong();
      long shortScans = scan.get("shortScans").asLong();
      long entries = scan.get("entries").asLong();
      assertEquals(300, scans, tree);
      assertEquals(20, scan.get("length").asInt(), tree);
      // Full scans read 20 entries, short ones (only near the last key) 1 to 19.
      assertTrue(shortScans < 30, tree + " short scans " + shortScans);
      assertTrue(entries >= (scans - shortScans) * 20 + shortScans, tree + " entries " + entries);
      assertTrue(entries <= (scans - shortScans) * 20 + shortScans * 19, tree + " entries " + entries);
      assertTrue(scan.get("opsPerSecond").asDouble() > 0, tree);
      assertLatency(scan.get("latencyMicros"));
      assertTrue(store.get("engine").isObject() && scan.get("engine").isObject(), tree);
    }
    // Both stores get the same operations.
    assertEquals(r.get("overwrite").get("bytesPut"), peer.get("overwrite").get("bytesPut"));
    assertEquals(r.get("scan").get("entries"), peer.get("scan").get("entries"));
    assertEquals(r.get("scan").get("shortScans"), peer.get("scan").get("shortScans"));
    // The engine's per-level sequence counts are reported; RocksDB has only the time writers stalled.
    assertTrue(r.get("read").get("engine").has("level.1.sequences"), r.get("read").get("engine").toString());
    assertTrue(r.get("read").get("engine").has("stall.micros"), r.get("read").get("engine").toString());
    java.util.List<String> peerCounters = new java.util.ArrayList<>();
    peer.get("read").get("engine").fieldNames().forEachRemaining(peerCounters::add);
    assertEquals(java.util.List.of("stall.micros"), peerCounters);

    JsonNode ratios = r.get("ratios");
    JsonNode o = r.get("overwrite");
    JsonNode po = peer.get("overwrite");
    assertEquals(o.get("writeAmplification").asDouble() / po.get("writeAmplification").asDouble(),
        ratios.get("writeAmplification").asDouble(), 1e-9, "write amplification over the whole run");
    assertEquals(o.get("spaceAmplification").asDouble() / po.get("spaceAmplification").asDouble(),
        ratios.get("spaceAmplification").asDouble(), 1e-9);
    assertEquals(o.get("opsPerSecond").asDouble() / po.get("opsPerSecond").asDouble(),
        ratios.get("overwriteOpsPerSecond").asDouble(), 1e-9);
    assertEquals(r.get("read").get("opsPerSecond").asDouble() / peer.get("read").get("opsPerSecond").asDouble(),
        ratios.get("readOpsPerSecond").asDouble(), 1e-9);
    assertEquals(r.get("scan").get("opsPerSecond").asDouble() / peer.get("scan").get("opsPerSecond").asDouble(),
        ratios.get("scanOpsPerSecond").asDouble(), 1e-9);

    String out = run.out();
    assertTrue(out.contains("  overwrites           3,000 puts of loaded keys"), out);
    assertTrue(out.contains(" over the whole run "), out);
    assertTrue(out.contains("  point reads          2,000 zipfian "), out);
    assertTrue(out.contains("  scans                300 x 20 entries, zipfian starts "), out);
    assertTrue(out.contains("  engine (after scans): ") && out.contains(" sequences per scan, ")
        && out.contains(" of them uncached, at most ") && out.contains("\n  level  nodes  sequences  mean-seq  max-seq\n"), out);
    assertTrue(out.contains("leveled / rocksdb: throughput ") && out.contains(", space amplification ")
        && out.contains(", read ops/s ") && out.contains(", scan ops/s "), out);
  }

  @Test
  void eachPhaseRunsAloneWithUniformReads() throws Exception {
    CliRun reads = CliRun.of("load", "--tree", "rocksdb", "--records", "2000", "--memtable", "64KiB", "--reads",
        "1000", "--read-distribution", "uniform", "--json", "--no-progress");
    JsonNode r = succeeded(reads);
    assertEquals("uniform", r.get("read").get("distribution").asText());
    assertEquals(1000, r.get("read").get("found").asLong());
    assertFalse(r.has("overwrite") || r.has("scan"), reads.out());

    CliRun scans = CliRun.of("load", "--tree", "leveled", "--records", "2000", "--memtable", "64KiB", "--scans",
        "100", "--json", "--no-progress");
    JsonNode s = succeeded(scans);
    assertEquals(100, s.get("scan").get("length").asInt(), "the default scan length");
    assertTrue(s.get("scan").get("entries").asLong() > 50 * 100, scans.out());
    assertFalse(s.has("overwrite") || s.has("read"), scans.out());
  }

  @Test
  void unknownTreeIsAUsageErrorListingTheTrees() {
    CliRun run = CliRun.of("load", "--tree", "no-such-tree", "--records", "10");

    assertEquals(2, run.exitCode());
    assertEquals("", run.out());
    assertEquals("iam load: unknown tree 'no-such-tree'; available trees: " + String.join(", ", LoadTargets.names()),
        run.err().strip());
    assertTrue(run.err().contains("rocksdb"));
    assertTrue(run.err().contains("leveled"));

    CliRun vs = CliRun.of("load", "--tree", "rocksdb", "--vs", "mongodb", "--records", "10");
    assertEquals(2, vs.exitCode());
    assertTrue(vs.err().contains("unknown tree 'mongodb'; available trees: rocksdb"), vs.err());

    // A store whose binding module is not on this class path says which module and how to get it.
    CliRun hbase = CliRun.of("load", "--tree", "hbase", "--records", "10");
    assertEquals(2, hbase.exitCode());
    assertTrue(hbase.err().contains("tree 'hbase' is in the module iam-bench-hbase, which is not on the class path;"
        + " run it through the ./iam script"), hbase.err());
  }

  @Test
  void randomLoadOverwritesRepeatsAndFullScansReadEveryLiveRecord() throws Exception {
    for (String tree : List.of("iam", "rocksdb")) {
      CliRun run = CliRun.of("load", "--tree", tree, "--order", "random", "--records", "3000", "--memtable", "64KiB",
          "--reads", "500", "--read-distribution", "uniform", "--json", "--no-progress");
      JsonNode r = succeeded(run);
      assertEquals("random", r.get("order").asText());
      assertEquals(500, r.get("read").get("found").asLong(), "every read of a put's key finds it");
      LoadWorkload w = new LoadWorkload(3000, r.get("valueSize").asInt(), KeyOrder.RANDOM, 42);
      assertEquals(w.liveBytes(), r.get("liveBytes").asLong());
      Set<String> distinctKeys = new HashSet<>();
      for (long n = 0; n < 3000; n++) {
        distinctKeys.add(new String(w.key(n), java.nio.charset.StandardCharsets.US_ASCII));
      }
      assertTrue(distinctKeys.size() < 3000 && distinctKeys.size() > 1800, "about 1 - 1/e of 3000 are distinct: "
          + distinctKeys.size());
      assertTrue(r.get("liveBytes").asLong() < r.get("userBytes").asLong(), "repeats overwrite: " + run.out());

      CliRun full = CliRun.of("load", "--tree", tree, "--order", "random", "--records", "3000", "--memtable",
          "64KiB", "--scans", "2", "--scan-length", "3000", "--read-distribution", "first", "--json",
          "--no-progress");
      JsonNode f = succeeded(full);
      assertEquals(2L * distinctKeys.size(), f.get("scan").get("entries").asLong(),
          "each full scan reads every distinct record once: " + f.get("scan"));
      assertEquals("first", f.get("scan").get("distribution").asText());
    }
  }

  @Test
  void everyVsStoreRunsWithTheSameWritersAndTheReportSaysHowMany() throws Exception {
    CliRun run = CliRun.of("load", "--tree", "iam", "--vs", "rocksdb", "--records", "5000", "--memtable", "256KiB",
        "--cache", "4MiB", "--writers", "3", "--json", "--no-progress");

    JsonNode r = succeeded(run);
    JsonNode peer = assertPeerAndRatios(r, "rocksdb");
    assertEquals(3, r.get("writers").asInt());
    assertEquals(3, peer.get("writers").asInt());
    assertEquals(userBytes(5000, 1024, KeyOrder.HASH), r.get("userBytes").asLong(), "one writer's records");
    assertTrue(run.out().startsWith("iam: 5,000 records, keys "), run.out());
    assertTrue(run.outLines().get(0).endsWith(", seed 42, 3 writers"), run.outLines().get(0));
    assertTrue(run.out().contains("\nrocksdb: 5,000 records, ") && run.out().contains("seed 42, 3 writers\n"),
        run.out());

    JsonNode single = succeeded(CliRun.of("load", "--tree", "rocksdb", "--records", "100", "--json",
        "--no-progress"));
    assertEquals(1, single.get("writers").asInt(), "one writer by default");
  }

  @Test
  void badOptionsAreUsageErrors() {
    assertUsage(CliRun.of("load", "--records", "10"), "--tree");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--records", "0"), "--records 0 is out of range");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--order", "zipf"), "hash, sequential");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--memtable", "lots"), "'lots'");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--threads", "0"), "--threads 0 is out of range");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--writers", "0"),
        "iam load: --writers 0 is out of range: allowed 1 or more");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--writers", "-3"), "--writers -3 is out of range");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--writers", "some"), "--writers");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--reads", "-1"),
        "iam load: --reads -1 is out of range: allowed 0 or more");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--overwrites", "-5"), "--overwrites -5 is out of range");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--scans", "-1"), "--scans -1 is out of range");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--scan-length", "0"),
        "--scan-length 0 is out of range: allowed 1 or more");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--read-distribution", "pareto"),
        "--read-distribution");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--read-distribution", "pareto"),
        "'pareto' is not one of: uniform, zipfian, first");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--reads", "10", "--read-distribution", "first"),
        "iam load: --read-distribution first applies to --scans only");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--reads", "many"), "--reads");
    // The engine checks its own bounds and names its option.
    assertUsage(CliRun.of("load", "--tree", "leveled", "--memtable", "1KiB", "--records", "10"),
        "iam load: leveled: memtable-size=1KiB is out of range");
  }

  /** A space amplification figure: positive and finite. */
  private static void assertSaneAmplification(JsonNode amp, String what) {
    assertTrue(amp.isNumber(), what + ": " + amp);
    assertTrue(amp.asDouble() > 0 && Double.isFinite(amp.asDouble()), what + ": " + amp);
  }

  private static void assertLatency(JsonNode latency) {
    assertTrue(latency.get("p50").asDouble() > 0, latency.toString());
    assertTrue(latency.get("p50").asDouble() <= latency.get("p99").asDouble(), latency.toString());
    assertTrue(latency.get("p99").asDouble() <= latency.get("p999").asDouble(), latency.toString());
    assertTrue(latency.get("p999").asDouble() <= latency.get("max").asDouble(), latency.toString());
  }

  private static void assertUsage(CliRun run, String message) {
    assertEquals(2, run.exitCode(), run.err());
    assertTrue(run.err().contains(message), run.err());
    assertEquals("", run.out());
  }

  /** The JSON line of a run that succeeded. */
  private static JsonNode succeeded(CliRun run) throws IOException {
    assertEquals(0, run.exitCode(), run.err());
    return JSON.readTree(run.lastOutLine());
  }

  /**
   * The {@code --vs} peer has our fields and our records, and the throughput and write amplification
   * ratios are ours / the peer's.
   */
  private static JsonNode assertPeerAndRatios(JsonNode r, String name) {
    JsonNode peer = r.get("vs").get(name);
    Set<String> ours = fieldNames(r);
    ours.removeAll(Set.of("vs", "ratios", "ratiosVs"));
    assertEquals(ours, fieldNames(peer));
    assertEquals(r.get("ratios"), r.get("ratiosVs").get(name), "ratios are those of the first --vs store");
    assertEquals(r.get("userBytes").asLong(), peer.get("userBytes").asLong(), "the same records");
    assertEquals(r.get("opsPerSecond").asDouble() / peer.get("opsPerSecond").asDouble(),
        r.get("ratios").get("opsPerSecond").asDouble(), 1e-9);
    assertEquals(r.get("settledOpsPerSecond").asDouble() / peer.get("settledOpsPerSecond").asDouble(),
        r.get("ratios").get("settledOpsPerSecond").asDouble(), 1e-9);
    // Write amplification over the whole run: the overwrites' figure if they ran, else the load's.
    assertEquals(wholeRun(r).get("writeAmplification").asDouble()
            / wholeRun(peer).get("writeAmplification").asDouble(),
        r.get("ratios").get("writeAmplification").asDouble(), 1e-9);
    return peer;
  }

  private static JsonNode wholeRun(JsonNode store) {
    return store.has("overwrite") ? store.get("overwrite") : store;
  }

  private static Set<String> fieldNames(JsonNode node) {
    Set<String> names = new TreeSet<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }

  private static long countSst(Path dir) throws IOException {
    return SettledLoad.files(dir, ".sst");
  }

  /** Key plus value bytes of a workload's records. */
  private static long userBytes(long records, int valueSize, KeyOrder order) {
    LoadWorkload w = new LoadWorkload(records, valueSize, order, 42);
    long bytes = 0;
    for (long n = 0; n < records; n++) {
      bytes += w.key(n).length + valueSize;
    }
    return bytes;
  }

  private static Set<Path> loadDirs(Path tmp) throws IOException {
    try (Stream<Path> entries = Files.list(tmp)) {
      return entries.filter(p -> p.getFileName().toString().startsWith("iam-load-"))
          .collect(Collectors.toCollection(HashSet::new));
    }
  }

  private static void deleteTree(Path root) throws IOException {
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(root)) {
      paths = new ArrayList<>(walk.sorted(Comparator.reverseOrder()).toList());
    }
    for (Path p : paths) {
      Files.deleteIfExists(p);
    }
  }
}
