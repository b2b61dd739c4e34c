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
  void unknownTreeIsAUsageErrorListingTheTrees() {
    CliRun run = CliRun.of("load", "--tree", "no-such-tree", "--records", "10");

    assertEquals(2, run.exitCode());
    assertEquals("", run.out());
    assertEquals("iam load: unknown tree 'no-such-tree'; available trees: " + String.join(", ", LoadTargets.names()),
        run.err().strip());
    assertTrue(run.err().contains("rocksdb"));
    assertTrue(run.err().contains("leveled"));

    CliRun vs = CliRun.of("load", "--tree", "rocksdb", "--vs", "hbase", "--records", "10");
    assertEquals(2, vs.exitCode());
    assertTrue(vs.err().contains("unknown tree 'hbase'; available trees: rocksdb"), vs.err());
  }

  @Test
  void badOptionsAreUsageErrors() {
    assertUsage(CliRun.of("load", "--records", "10"), "--tree");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--records", "0"), "--records 0 is out of range");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--order", "zipf"), "hash, sequential");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--memtable", "lots"), "'lots'");
    assertUsage(CliRun.of("load", "--tree", "rocksdb", "--threads", "0"), "--threads 0 is out of range");
    // The engine checks its own bounds and names its option.
    assertUsage(CliRun.of("load", "--tree", "leveled", "--memtable", "1KiB", "--records", "10"),
        "iam load: leveled: memtable-size=1KiB is out of range");
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

  /** The {@code --vs} peer has our fields and our records, and the ratios are ours / the peer's. */
  private static JsonNode assertPeerAndRatios(JsonNode r, String name) {
    JsonNode peer = r.get("vs").get(name);
    Set<String> ours = fieldNames(r);
    ours.removeAll(Set.of("vs", "ratios"));
    assertEquals(ours, fieldNames(peer));
    assertEquals(r.get("userBytes").asLong(), peer.get("userBytes").asLong(), "the same records");
    assertEquals(r.get("opsPerSecond").asDouble() / peer.get("opsPerSecond").asDouble(),
        r.get("ratios").get("opsPerSecond").asDouble(), 1e-9);
    assertEquals(r.get("writeAmplification").asDouble() / peer.get("writeAmplification").asDouble(),
        r.get("ratios").get("writeAmplification").asDouble(), 1e-9);
    return peer;
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
