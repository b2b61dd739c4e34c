package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The phases after a load, run by {@link LoadRunner} on a {@link MapTarget}. */
class PhasesTest {

  private static final int RECORDS = 2000;
  private static final int VALUE = 100;
  private static final Path NO_DIR = Path.of("unused");

  private static RunResult run(MapTarget target, Phases phases) throws IOException {
    LoadConfig config = LoadConfig.defaults("map", 1 << 20, 1 << 20);
    return LoadRunner.run(target.factory(), NO_DIR, config, workload(), phases, false);
  }

  private static LoadWorkload workload() {
    return new LoadWorkload(RECORDS, VALUE, KeyOrder.HASH, 42);
  }

  @Test
  void ratiosPrintThreeDecimalsSoThatATargetIsNotMetByRounding() {
    assertEquals("0.551x", LoadReport.ratioText(4.40 / 7.99));
    assertEquals("1.496x", LoadReport.ratioText(75_036 / 50_155.0));
    assertEquals("n/a", LoadReport.ratioText(LoadReport.ratio(1, 0)));
  }

  @Test
  void overwritesReplaceLoadedValuesAndKeepTheLiveSize() throws IOException {
    MapTarget target = new MapTarget();
    RunResult r = run(target, new Phases(5000, 0, KeyDistribution.ZIPFIAN, 0, 10));

    OverwriteResult o = r.overwrite().orElseThrow();
    assertEquals(5000, o.timed().ops());
    assertEquals(5000, o.timed().latency().count());
    assertEquals(RECORDS, target.map.size(), "only loaded keys were written");
    long live = r.load().liveBytes();
    assertEquals(live, o.liveBytes());
    assertEquals(o.metrics().userBytes() - live, o.bytesPut());
    assertTrue(o.bytesPut() > 5000L * VALUE, "each overwrite puts a key and a value of the load's size");
    // The map holds each live record once: disk = live.
    assertEquals(1.0, o.spaceAmplification(), 1e-12);
    assertEquals(1.0, r.spaceAmplification(), 1e-12);
    assertEquals(1.0, r.writeAmplification(), 1e-12);
    assertEquals(o.metrics(), r.lastMetrics());
    assertTrue(r.read().isEmpty() && r.scan().isEmpty());
    assertEquals("overwrites", r.lastPhase());
    assertTrue(target.closed);
  }

  @Test
  void readsFindEveryLoadedKeyAndZipfianReadsAreSkewed() throws IOException {
    MapTarget zipfian = new MapTarget();
    ReadResult z = run(zipfian, new Phases(0, 20_000, KeyDistribution.ZIPFIAN, 0, 10)).read().orElseThrow();
    MapTarget uniform = new MapTarget();
    ReadResult u = run(uniform, new Phases(0, 20_000, KeyDistribution.UNIFORM, 0, 10)).read().orElseThrow();

    assertEquals(0, z.misses());
    assertEquals(20_000, z.timed().ops());
    assertEquals(KeyDistribution.ZIPFIAN, z.distribution());
    assertTrue(zipfian.map.keySet().stream().map(MapTarget::text).toList().containsAll(zipfian.gets));
    // Rank 0 of the Zipfian gets about 3.8% of the reads; uniform reads get ~10 per key.
    assertTrue(maxPerKey(zipfian.gets) > 500, "zipfian hottest key " + maxPerKey(zipfian.gets));
    assertTrue(maxPerKey(uniform.gets) < 50, "uniform hottest key " + maxPerKey(uniform.gets));
    assertEquals(0, u.misses());
  }

  @Test
  void theSameSeedReadsTheSameKeysWhicheverPhasesRanBefore() throws IOException {
    MapTarget a = new MapTarget();
    run(a, new Phases(0, 1000, KeyDistribution.ZIPFIAN, 0, 10));
    MapTarget b = new MapTarget();
    run(b, new Phases(3000, 1000, KeyDistribution.ZIPFIAN, 0, 10));

    assertEquals(a.gets, b.gets);
  }

  @Test
  void scansReadTheirLengthExceptAtTheEnd() throws IOException {
    MapTarget target = new MapTarget();
    int length = 50;
    // Uniform starts over 2,000 keys: about 2.5% of 2,000 scans start in the last 50 keys.
    ScanResult s = run(target, new Phases(0, 0, KeyDistribution.UNIFORM, 2000, length)).scan().orElseThrow();

    List<byte[]> sorted = List.copyOf(target.map.keySet());
    long entries = 0;
    long shortScans = 0;
    for (byte[] start : target.scanStarts) {
      int at = index(sorted, start);
      assertTrue(at >= 0, "every scan starts at a loaded key");
      int expected = Math.min(length, sorted.size() - at);
      entries += expected;
      shortScans += expected < length ? 1 : 0;
    }
    assertEquals(2000, s.timed().ops());
    assertEquals(entries, s.entries());
    assertEquals(shortScans, s.shortScans());
    assertTrue(shortScans > 0 && shortScans < 200, "short scans " + shortScans);
    assertEquals(length, s.length());
    assertEquals(2.0, s.engine().sequencesPerScan().orElseThrow(), 1e-12);
  }

  @Test
  void aReadThatMissesALoadedKeyFailsTheRun() {
    String lost = LoadWorkload.keyName(7, KeyOrder.HASH);
    MapTarget target = new MapTarget(Set.of(lost), Map.of());

    Misses.MissingKeyException e = assertThrows(Misses.MissingKeyException.class,
        () -> run(target, new Phases(0, 50_000, KeyDistribution.UNIFORM, 0, 10)));

    long misses = target.gets.stream().filter(lost::equals).count();
    assertTrue(misses > 0);
    assertEquals("map: " + misses + " of 50,000 point reads found nothing for a loaded key (first: " + lost
        + "); the store lost data", e.getMessage());
    assertTrue(target.closed, "the store is closed all the same");
  }

  @Test
  void theMissCheckerPassesCleanPhasesAndNamesTheFirstMiss() throws IOException {
    Misses clean = new Misses("scans");
    clean.check("t", 10);
    assertEquals(0, clean.count());

    Misses misses = new Misses("scans");
    misses.miss("user1".getBytes());
    misses.miss("user2".getBytes());
    assertEquals(2, misses.count());
    Misses.MissingKeyException e = assertThrows(Misses.MissingKeyException.class, () -> misses.check("t", 1234));
    assertEquals("t: 2 of 1,234 scans found nothing for a loaded key (first: user1); the store lost data",
        e.getMessage());
  }

  @Test
  void theReportAndJsonShowTheEnginesCountersWhereItHasThem() throws IOException {
    Map<String, Number> properties = new java.util.HashMap<>(Map.of("tree.mixed-level", 2, "tree.max-sequences", 3,
        "tree.depth", 4, "level.2.nodes", 6, "level.2.sequences", 13, "level.2.mean-sequences", 13 / 6.0,
        "flush.count", 1, "stall.micros", 2_460_000L, "slowdown.micros", 0L, "block-cache.protected-overflows", 7L));
    properties.putAll(Map.of("stall.flush-waits-for-tree.micros", 2_000_000L, "stall.flush-running.micros", 460_000L,
        "stall.level0-full.micros", 0L));
    properties.putAll(Map.of("stall.flush-waits-for-tree.waits", 1_204L, "stall.flush-waits-for-tree.waits-10ms", 31L,
        "stall.flush-waits-for-tree.waits-100ms", 2L, "stall.flush-waits-for-tree.waits-500ms", 0L,
        "stall.flush-waits-for-tree.longest-micros", 312_400L, "stall.flush-running.waits", 9L,
        "stall.flush-running.longest-micros", 80_000L, "stall.level0-full.waits", 0L));
    RunResult ours = run(new MapTarget(Set.of(), properties), new Phases(100, 100, KeyDistribution.ZIPFIAN, 10, 5));
    RunResult peer = run(new MapTarget(), new Phases(100, 100, KeyDistribution.ZIPFIAN, 10, 5));

    StringWriter text = new StringWriter();
    PrintWriter out = new PrintWriter(text);
    LoadReport.print(out, ours);
    LoadReport.print(out, peer);
    LoadReport.printRatios(out, ours, peer);
    out.flush();
    String report = text.toString();
    assertTrue(report.contains("  engine (after scans): mixed level m 2, cap k 3, depth 4, writers stalled 2.5 s"
        + " (flush-waits-for-tree 2.0 s, flush-running 0.5 s), 2.00 sequences per scan, protected blocks demoted for want of room 7\n"
        + "  writes that stood still: flush-waits-for-tree 1,204 (31 of them ≥ 10 ms, 2 ≥ 100 ms, 0 ≥ 500 ms),"
        + " the longest 312 ms; flush-running 9 (0 of them ≥ 10 ms, 0 ≥ 100 ms, 0 ≥ 500 ms), the longest 80 ms\n"
        + "  level  nodes  sequences  mean-seq  max-seq\n"
        + "  L2         6         13      2.17        -\n"), report);
    assertTrue(report.contains("map / map: throughput "), report);
    assertTrue(report.contains(", space amplification 1.000x, overwrite throughput "), report);
    assertTrue(report.contains(", read ops/s ") && report.contains(", scan ops/s "), report);

    JsonNode json = new ObjectMapper().readTree(LoadJson.of(ours, java.util.List.of(peer)));
    JsonNode scanEngine = json.get("scan").get("engine");
    assertEquals(2, scanEngine.get("tree.mixed-level").asInt());
    assertEquals(13 / 6.0, scanEngine.get("level.2.mean-sequences").asDouble(), 1e-12);
    assertEquals(10, scanEngine.get("scan.count").asInt());
    assertEquals(2.0, scanEngine.get("sequencesPerScan").asDouble(), 1e-12);
    assertFalse(scanEngine.has("flush.count"));
    assertEquals(0, json.get("engine").get("scan.count").asInt(), "after the load, no scans yet");
    assertFalse(json.get("engine").has("sequencesPerScan"));
    assertEquals(Set.of("opsPerSecond", "settledOpsPerSecond", "writeAmplification", "spaceAmplification",
        "overwriteOpsPerSecond",
        "readOpsPerSecond", "scanOpsPerSecond"), fieldNames(json.get("ratios")));
    assertEquals(1.0, json.get("ratios").get("spaceAmplification").asDouble(), 1e-12);
  }

  @Test
  void phasesRefuseNegativeCounts() {
    assertThrows(IllegalArgumentException.class, () -> new Phases(-1, 0, KeyDistribution.ZIPFIAN, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new Phases(0, -1, KeyDistribution.ZIPFIAN, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new Phases(0, 0, KeyDistribution.ZIPFIAN, -1, 1));
    assertThrows(IllegalArgumentException.class, () -> new Phases(0, 0, KeyDistribution.ZIPFIAN, 0, 0));
    assertThrows(NullPointerException.class, () -> new Phases(0, 0, null, 0, 1));
  }

  private static int index(List<byte[]> sorted, byte[] key) {
    for (int i = 0; i < sorted.size(); i++) {
      if (Arrays.equals(sorted.get(i), key)) {
        return i;
      }
    }
    return -1;
  }

  private static long maxPerKey(List<String> keys) {
    Map<String, Long> counts = new HashMap<>();
    keys.forEach(k -> counts.merge(k, 1L, Long::sum));
    return counts.values().stream().mapToLong(Long::longValue).max().orElse(0);
  }

  private static Set<String> fieldNames(JsonNode node) {
    Set<String> names = new TreeSet<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
