package io.iam.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.cli.CliRun;
import io.iam.bench.util.Sizes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class YcsbCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void jsonLineHasTheFigures() throws Exception {
    Path dir = tmp.resolve("store");
    CliRun run = CliRun.of("ycsb", "--engine", "iam", "--workload", "f", "--records", "1000", "--operations", "1000",
        "--memtable", "256KiB", "--cache", "1MiB", "--dir", dir.toString(), "--json", "--no-progress");

    assertEquals(0, run.exitCode(), run.err());
    assertEquals("", run.err());
    JsonNode r = JSON.readTree(run.lastOutLine());
    assertEquals("iam", r.get("engine").asText());
    assertEquals("f", r.get("workload").asText());
    assertEquals(1000, r.get("records").asLong());
    assertEquals(1000, r.get("operations").asLong());
    assertEquals(1, r.get("threads").asInt());
    assertEquals(0, r.get("errors").asLong());
    assertTrue(r.get("opsPerSecond").asDouble() > 0);
    assertEquals(r.get("run").get("opsPerSecond").asDouble(), r.get("opsPerSecond").asDouble());
    assertTrue(r.get("diskBytes").asLong() > 0);
    assertEquals((double) (r.get("flushBytes").asLong() + r.get("compactionBytesWritten").asLong())
        / r.get("userBytes").asLong(), r.get("writeAmplification").asDouble(), 1e-12);
    assertTrue(r.get("engineStats").isTextual(), r.toString());

    JsonNode latency = r.get("latencyMicros");
    assertEquals(List.of("read", "update", "readModifyWrite"), names(latency));
    for (JsonNode op : latency) {
      assertEquals(List.of("p50", "p95", "p99", "p999", "max"), names(op));
      assertTrue(op.get("p50").asDouble() > 0, op.toString());
      assertTrue(op.get("p50").asDouble() <= op.get("p95").asDouble(), op.toString());
      assertTrue(op.get("p95").asDouble() <= op.get("p99").asDouble(), op.toString());
      assertTrue(op.get("p99").asDouble() <= op.get("p999").asDouble(), op.toString());
      assertTrue(op.get("p999").asDouble() <= op.get("max").asDouble(), op.toString());
    }
    JsonNode types = r.get("run").get("operationTypes");
    long rmw = types.get("readModifyWrite").get("count").asLong();
    assertEquals(1000, types.get("read").get("count").asLong(),
        "every operation is a read or a read-modify-write, whose read counts as a read: " + types);
    assertEquals(rmw, types.get("update").get("count").asLong());
    assertEquals(1000, r.get("load").get("operationTypes").get("insert").get("count").asLong());
    assertTrue(run.out().contains("ycsb workload f on iam: 1,000 records, 1,000 operations, 1 client thread"),
        run.out());
    assertTrue(run.out().contains("  written              " + Sizes.human(r.get("flushBytes").asLong())
        + " by flushes, " + Sizes.human(r.get("compactionBytesWritten").asLong()) + " by compactions"), run.out());
    assertTrue(Files.isDirectory(dir), "--dir is kept");
  }

  @Test
  void badFlagsGiveOneClearLine() {
    assertError("iam ycsb: --engine: unknown engine 'mongodb'; available engines: ",
        "--engine", "mongodb", "--workload", "a");
    assertError("iam ycsb: --workload: unknown workload 'h'; available: a, b, c, d, e, f, g, load\n",
        "--engine", "iam", "--workload", "h");
    assertError("iam ycsb: --records 0 is out of range: allowed 1 to 2147483647\n",
        "--engine", "iam", "--workload", "a", "--records", "0");
    assertError("iam ycsb: --threads 0 is out of range: allowed 1 to 2147483647\n",
        "--engine", "iam", "--workload", "a", "--threads", "0");
    assertError("iam ycsb: Missing required option: '--workload=W'\n", "--engine", "iam");
    assertError("iam ycsb: Invalid value for option '--memtable': 'big': ", "--engine", "iam", "--workload", "a",
        "--memtable", "big");
    assertError("iam ycsb: --policy sets the merge policy of an HBase or AsterixDB store; 'iam' has none",
        "--engine", "iam", "--workload", "a", "--policy", "binomial");
    assertError("iam ycsb: --k sets the merge policy of an HBase or AsterixDB store; 'rocksdb' has none",
        "--engine", "rocksdb", "--workload", "a", "--k", "4");
    assertError("iam ycsb: Unknown options: '--colour', 'x'\n", "--engine", "iam", "--workload", "a", "--colour", "x");
  }

  @Test
  void engineOptionsReachTheStore() {
    CliRun run = CliRun.of("ycsb", "--engine", "iam", "--workload", "a", "--records", "100", "--operations", "10",
        "--no-progress", "-o", "no-such-option=1");
    assertTrue(run.exitCode() != 0, run.out());
    assertTrue(run.err().contains("unknown option 'no-such-option'"), run.err());
  }

  @Test
  void helpNamesEveryEngineAndWorkload() {
    CliRun run = CliRun.of("ycsb", "--help");
    assertEquals(0, run.exitCode(), run.err());
    String help = run.out().replaceAll("\\s+", " ");
    assertTrue(help.contains("95% scans of 1-10,000 records, 5% inserts"), help);
    assertTrue(help.contains("Store: rocksdb, rocksdb-universal, leveled, iam, lsa, lsm-merge, lsbm, minmax, stack."), help);
    assertTrue(help.contains("Workload: a, b, c, d, e, f, g, load."), help);
  }

  @Test
  void nonEmptyDirIsRefused() throws Exception {
    Files.writeString(tmp.resolve("old"), "data");
    CliRun run = CliRun.of("ycsb", "--engine", "rocksdb", "--workload", "a", "--dir", tmp.toString());
    assertEquals(2, run.exitCode());
    assertEquals("iam ycsb: --dir: " + tmp + " is not empty; give a new directory\n", run.err());
  }

  private static void assertError(String start, String... args) {
    CliRun.assertUsageError("ycsb", start, args);
  }

  private static List<String> names(JsonNode o) {
    List<String> names = new java.util.ArrayList<>();
    o.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
