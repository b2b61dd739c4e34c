package io.iam.bench.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.cli.CliRun;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code iam compare} end to end: child JVMs (the {@code java -cp} launcher), the files, the failures, the flags. */
class CompareCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

  @TempDir Path tmp;

  @Test
  void smallComparisonWritesTheReportChartsAndJson() throws Exception {
    Path out = tmp.resolve("report");
    CliRun run = CliRun.of("compare", "--engines", "iam,rocksdb", "--workloads", "load,a,c", "--records", "500",
        "--operations", "300", "--memtable", "64KiB", "--cache", "1MiB", "--out", out.toString(), "--no-progress");

    assertEquals(0, run.exitCode(), run.err());
    for (String png : List.of(CompareCharts.THROUGHPUT, CompareCharts.WRITE_AMPLIFICATION, CompareCharts.LATENCY,
        CompareCharts.DISK)) {
      byte[] bytes = Files.readAllBytes(out.resolve(png));
      assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(bytes, 8), png);
      BufferedImage image = ImageIO.read(out.resolve(png).toFile());
      assertNotNull(image, png);
      assertTrue(image.getWidth() > 100 && image.getHeight() > 100, png);
    }

    JsonNode results = JSON.readTree(Files.readString(out.resolve(CompareReport.RESULTS)));
    JsonNode runs = results.get("runs");
    List<String> order = new ArrayList<>();
    for (JsonNode r : runs) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      assertEquals(0, r.get("exitCode").asInt());
      JsonNode child = r.get("result");
      assertEquals(r.get("engine").asText(), child.get("engine").asText());
      assertEquals(r.get("workload").asText(), child.get("workload").asText());
      assertEquals(500, child.get("records").asLong());
      assertEquals(1024 * 64, child.get("memtableBytes").asLong(), "the same budgets for every engine");
      assertEquals(1024 * 1024, child.get("cacheBytes").asLong());
      assertTrue(child.get("levels").size() > 0, "the run's JSON has its levels: " + child);
      order.add(r.get("workload").asText() + "/" + r.get("engine").asText());
    }
    assertEquals(List.of("load/iam", "load/rocksdb", "a/iam", "a/rocksdb", "c/iam", "c/rocksdb"), order,
        "workload-major, the engines alternating");
    assertEquals("iam compare --engines iam,rocksdb --workloads load,a,c --records 500 --operations 300"
        + " --memtable 64KiB --cache 1MiB --out " + out + " --no-progress", results.get("command").asText());

    String md = Files.readString(out.resolve(CompareReport.MARKDOWN));
    JsonNode summary = results.get("summary");
    assertEquals(6, summary.size());
    for (JsonNode cell : summary) {
      String w = cell.get("workload").asText();
      String e = cell.get("engine").asText();
      JsonNode child = runOf(runs, w, e).get("result");
      assertEquals(child.get("opsPerSecond").asDouble(), cell.get("opsPerSecond").asDouble(), "median of one run");
      assertEquals(child.get("writeAmplification").asDouble(), cell.get("writeAmplification").asDouble());
      double baseline = summaryOf(summary, w, "iam").get("opsPerSecond").asDouble();
      if (e.equals("iam")) {
        assertEquals(1.0, cell.get("normalizedThroughput").asDouble(), 0.0, "the baseline is exactly 1");
      } else {
        assertEquals(cell.get("opsPerSecond").asDouble() / baseline, cell.get("normalizedThroughput").asDouble());
      }
      String row = String.format(Locale.ROOT, "| %s | %s | 1 | %,.0f | 0.0%% | %.2f | %.2f | %.2f |", w, e,
          child.get("opsPerSecond").asDouble(), cell.get("normalizedThroughput").asDouble(),
          child.get("writeAmplification").asDouble(), child.get("diskBytes").asDouble() / (1024 * 1024));
      assertTrue(md.contains(row), "report.md has " + row + ":\n" + md);
      JsonNode p99 = child.get("latencyMicros").elements().next().get("p99");
      assertTrue(md.contains(String.format(Locale.ROOT, " %,.1f |", p99.asDouble())), "latency " + p99);
    }
    assertTrue(md.contains("**Machine:** " + Runtime.getRuntime().availableProcessors() + " cores"), md);
    assertTrue(md.contains("`iam ycsb --engine rocksdb --workload c --records 500 --operations 300 --threads 1"
        + " --memtable 65536 --cache 1048576 --json --no-progress`"), "each run's command");
    assertTrue(md.contains("![throughput per workload normalized to iam](throughput.png)"), md);
    assertTrue(run.out().contains("| load | iam | 1 |"), "the summary table on stdout: " + run.out());

    String html = Files.readString(out.resolve(CompareReport.HTML));
    assertTrue(html.startsWith("<!DOCTYPE html>"));
    for (String png : List.of("throughput.png", "write-amplification.png", "latency.png", "disk.png")) {
      assertTrue(html.contains("<img src=\"" + png + "\""), png);
    }
    assertTrue(html.contains("<td>load</td><td>iam</td><td class=\"n\">1</td>"), html);
  }

  @Test
  void thePapersTestsRunIamLoad() throws Exception {
    Path out = tmp.resolve("paper");
    CliRun run = CliRun.of("compare", "--engines", "rocksdb,iam", "--workloads", "seqload,seqread,randload,overwrite",
        "--records", "400", "--memtable", "64KiB", "--cache", "1MiB", "--out", out.toString(), "--no-progress");

    assertEquals(0, run.exitCode(), run.err());
    JsonNode results = JSON.readTree(Files.readString(out.resolve(CompareReport.RESULTS)));
    assertEquals(8, results.get("runs").size());
    for (JsonNode r : results.get("runs")) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      assertTrue(r.get("command").asText().startsWith("iam load --tree " + r.get("engine").asText()
          + " --records 400 --memtable 65536 --cache 1048576 "), r.get("command").asText());
      JsonNode f = r.get("result");
      JsonNode load = f.get("load");
      assertEquals(400, load.get("records").asLong());
      switch (r.get("workload").asText()) {
        case "seqload" -> {
          assertEquals("sequential", load.get("order").asText());
          assertEquals(load.get("opsPerSecond").asDouble(), f.get("opsPerSecond").asDouble());
          assertEquals(load.get("latencyMicros"), f.get("latencyMicros").get("insert"));
        }
        case "seqread" -> {
          assertEquals(PaperTest.SCANS, load.get("scan").get("ops").asLong());
          assertEquals(load.get("scan").get("entriesPerSecond").asDouble(), f.get("opsPerSecond").asDouble());
          // Full scans from the first key: every scan reads all 400 records.
          assertEquals(PaperTest.SCANS * 400L, load.get("scan").get("entries").asLong(), load.get("scan").toString());
          assertEquals("first", load.get("scan").get("distribution").asText());
        }
        case "randload" -> {
          assertEquals("random", load.get("order").asText());
          assertEquals(load.get("opsPerSecond").asDouble(), f.get("opsPerSecond").asDouble());
          // Repeated draws overwrite: fewer live bytes than bytes put.
          assertTrue(load.get("liveBytes").asLong() < load.get("userBytes").asLong(), load.toString());
        }
        case "overwrite" -> {
          assertEquals(400, load.get("overwrite").get("ops").asLong());
          assertEquals(load.get("overwrite").get("writeAmplification").asDouble(),
              f.get("writeAmplification").asDouble());
          assertEquals(load.get("overwrite").get("diskBytes").asLong(), f.get("diskBytes").asLong());
        }
        default -> throw new AssertionError(r.toString());
      }
    }
    String md = Files.readString(out.resolve(CompareReport.MARKDOWN));
    assertTrue(md.contains("`overwrite` (overwrites after a load)"), md);
    JsonNode cell = summaryOf(results.get("summary"), "overwrite", "rocksdb");
    assertEquals(1.0, cell.get("normalizedThroughput").asDouble(), 0.0, "rocksdb, given first, is the baseline");
    assertTrue(md.contains(String.format(Locale.ROOT, "| overwrite | rocksdb | 1 | %,.0f | 0.0%% | 1.00 | %.2f |",
        cell.get("opsPerSecond").asDouble(), cell.get("writeAmplification").asDouble())), md);
  }

  @Test
  void aFailedRunIsReportedAndTheOthersStillRun() throws Exception {
    Path out = tmp.resolve("failed");
    CliRun run = CliRun.of("compare", "--engines", "iam,rocksdb", "--workloads", "load", "--records", "200",
        "-o", "no-such-option=1", "--baseline", "rocksdb", "--out", out.toString(), "--no-progress");

    assertEquals(1, run.exitCode(), run.err());
    assertTrue(run.err().contains("iam compare: 1 of 2 runs failed; see " + out.resolve("report.md")), run.err());
    assertTrue(run.err().contains("[1/2 iam load] iam ycsb: iam: unknown option 'no-such-option'"),
        "the child's stderr, forwarded with its tag: " + run.err());
    JsonNode results = JSON.readTree(Files.readString(out.resolve(CompareReport.RESULTS)));
    JsonNode failed = results.get("runs").get(0);
    assertEquals("failed", failed.get("status").asText());
    assertEquals(2, failed.get("exitCode").asInt());
    assertTrue(failed.get("lastStderrLine").asText().startsWith("iam ycsb: iam: unknown option 'no-such-option'"),
        failed.toString());
    // RocksDB's binding ignores store options it does not know, so its run succeeds.
    assertEquals("ok", results.get("runs").get(1).get("status").asText(), "the run after a failed one still runs");
    String md = Files.readString(out.resolve(CompareReport.MARKDOWN));
    assertTrue(md.contains("| load | iam | 0 of 1 (FAILED) | - | - | - | - | - |"), md);
    assertTrue(md.contains("| load | rocksdb | 1 | "), md);
    assertTrue(md.contains("| 1 | 1 | load | iam | FAILED: exit code 2: iam ycsb: iam: unknown option"), md);
    assertTrue(Files.size(out.resolve(CompareCharts.THROUGHPUT)) > 0, "charts even without figures");
  }

  @Test
  void badFlagsGiveOneClearLine() throws Exception {
    String out = tmp.resolve("never").toString();
    assertError("iam compare: --engines: unknown engine 'mongodb'; available engines: ",
        "--engines", "iam,mongodb", "--out", out);
    assertError("iam compare: --engines: 'iam' is given twice\n", "--engines", "iam,rocksdb,iam", "--out", out);
    assertError("iam compare: --workloads: unknown workload 'h'; available: a, b, c, d, e, f, g, load, seqload,"
        + " seqread, randload, overwrite\n",
        "--workloads", "a,h", "--out", out);
    assertError("iam compare: --baseline: 'lsa' is not one of --engines (iam, rocksdb)\n",
        "--engines", "iam,rocksdb", "--baseline", "lsa", "--out", out);
    assertError("iam compare: --records 0 is out of range: allowed 1 to 2147483647\n", "--records", "0", "--out", out);
    assertError("iam compare: --repeat 0 is out of range: allowed 1 to 2147483647\n", "--repeat", "0", "--out", out);
    assertError("iam compare: Invalid value for option '--memtable': 'big': ", "--memtable", "big", "--out", out);
    assertError("iam compare: --policy sets the merge policy of HBase or AsterixDB; none of --engines"
        + " (iam, leveled, rocksdb) has one\n", "--policy", "binomial", "--out", out);
    assertError("iam compare: Missing required option: '--out=DIR'\n", "--engines", "iam");
    Path full = Files.createDirectories(tmp.resolve("full"));
    Files.writeString(full.resolve("old.txt"), "x");
    assertError("iam compare: --out: " + full + " is not empty; give a new directory\n", "--out", full.toString());
    assertTrue(Files.notExists(Path.of(out)), "nothing written after a bad flag");
  }

  private static void assertError(String expectedStart, String... args) {
    CliRun run = CliRun.assertUsageError("compare", expectedStart, args);
    assertEquals(1, run.err().lines().count(), "one line: " + run.err());
  }

  private static JsonNode runOf(JsonNode runs, String workload, String engine) {
    for (JsonNode r : runs) {
      if (r.get("workload").asText().equals(workload) && r.get("engine").asText().equals(engine)) {
        return r;
      }
    }
    throw new AssertionError("no run " + workload + "/" + engine);
  }

  private static JsonNode summaryOf(JsonNode summary, String workload, String engine) {
    return runOf(summary, workload, engine);
  }
}
