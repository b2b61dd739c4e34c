package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class SimulateCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void minLatencyOnNineUnitFlushesMatchesThePaper() throws Exception {
    CliRun run = CliRun.of("simulate", "--policy", "minlatency", "--k", "3", "--flushes", "9",
        "--every", "1", "--flush-size", "1", "--json");

    assertEquals(0, run.exitCode(), run.err());
    assertEquals("", run.err());
    JsonNode result = JSON.readTree(run.lastOutLine());
    assertEquals(15.0 / 9, result.get("writeAmplification").asDouble(), 1e-9);
    assertEquals(3, result.get("maxComponents").asInt());
    assertEquals(3, result.get("merges").asLong());
    assertEquals(3, result.get("k").asInt());
    assertEquals("minlatency", result.get("policy").asText());
    assertEquals("3", result.get("options").get("max-components").asText());
    assertEquals("model", result.get("accounting").asText());
    assertEquals(9, result.get("flushes").asLong());
    assertEquals(9, result.get("bytesFlushed").asLong());
    assertEquals(15, result.get("bytesWritten").asLong());
    assertEquals(9, result.get("series").size());
    assertEquals(9, result.get("series").get(8).get("flushes").asLong());
  }

  @Test
  void printsHeaderTableAndSummary() {
    CliRun run = CliRun.of("simulate", "--policy", "binomial", "--k", "4", "--flushes", "3000");

    assertEquals(0, run.exitCode(), run.err());
    assertTrue(run.outLines().get(0).startsWith("policy binomial {max-components=4}"), run.out());
    assertTrue(run.out().contains("uniform 4MiB"), run.out());
    assertTrue(run.out().contains("write-amp"), run.out());
    assertTrue(run.out().contains("write amplification"), run.out());
    assertTrue(run.out().contains("flushes/s"), run.out());
    assertFalse(run.lastOutLine().startsWith("{"), "no JSON without --json");
  }

  @Test
  void jsonOfAPolicyWithoutKHasNullK() throws Exception {
    CliRun run = CliRun.of("simulate", "--policy", "prefix", "--flushes", "500", "--json");

    assertEquals(0, run.exitCode(), run.err());
    assertTrue(JSON.readTree(run.lastOutLine()).get("k").isNull());
  }

  @Test
  void updateModelAndRandomFlushesRun() throws Exception {
    CliRun updates = CliRun.of("simulate", "--flushes", "50", "--every", "10", "--updates", "0.5",
        "--flush-size", "64KiB", "--record-size", "1KiB", "--json");
    CliRun random = CliRun.of("simulate", "--flushes", "50", "--flush-random", "1KiB:8KiB", "--json");

    assertEquals(0, updates.exitCode(), updates.err());
    assertTrue(JSON.readTree(updates.lastOutLine()).get("stream").asText().startsWith("updates 50%"));
    assertEquals(0, random.exitCode(), random.err());
    assertTrue(JSON.readTree(random.lastOutLine()).get("stream").asText().startsWith("random 1KiB..8KiB"));
  }

  @Test
  void unknownPolicyIsAUsageError() {
    CliRun run = CliRun.of("simulate", "--policy", "nope");

    assertUsageError(run, "unknown policy 'nope'");
  }

  @Test
  void kOfZeroIsAUsageError() {
    CliRun run = CliRun.of("simulate", "--k", "0");

    assertUsageError(run, "max-components=0 is out of range");
  }

  @Test
  void kIsRefusedForAPolicyWithoutMaxComponents() {
    CliRun run = CliRun.of("simulate", "--policy", "prefix", "--k", "4");

    assertUsageError(run, "prefix policy does not have");
  }

  @Test
  void badPolicyOptionsAreAllReported() {
    CliRun run = CliRun.of("simulate", "--policy", "exploring", "-o", "ratio=x", "-o", "nope=1");

    assertUsageError(run, "unknown option 'nope'");
    assertTrue(run.err().contains("ratio='x'"), run.err());
  }

  @Test
  void badSizesAndStreamsAreUsageErrors() {
    assertUsageError(CliRun.of("simulate", "--flush-size", "4XB"), "--flush-size");
    assertUsageError(CliRun.of("simulate", "--flush-random", "8MiB:1MiB"), "needs 0 < MIN <= MAX");
    assertUsageError(CliRun.of("simulate", "--updates", "1"), "--updates");
    assertUsageError(CliRun.of("simulate", "--accounting", "eventually"), "--accounting");
  }

  @Test
  void sweepOptionsAndSingleRunOptionsDoNotMix() {
    assertUsageError(CliRun.of("simulate", "--out", "x"), "--out applies only to --sweep");
    assertUsageError(CliRun.of("simulate", "--sweep", "--out", "x", "-o", "ratio=2"),
        "--option cannot be combined with --sweep");
    assertUsageError(CliRun.of("simulate", "--sweep"), "--sweep needs --out");
  }

  @Test
  void helpAndVersionSucceed() {
    CliRun help = CliRun.of("--help");
    CliRun version = CliRun.of("--version");
    CliRun simulateHelp = CliRun.of("simulate", "--help");

    assertEquals(0, help.exitCode());
    assertTrue(help.out().contains("simulate"), help.out());
    assertTrue(help.out().contains("policies"), help.out());
    assertEquals(0, version.exitCode());
    assertTrue(version.out().startsWith("iam "), version.out());
    assertEquals(0, simulateHelp.exitCode());
    // Help wraps at 80 columns, wherever the text (such as the list of policies) puts the break.
    String unwrapped = simulateHelp.out().replaceAll("\\s+", " ");
    assertTrue(unwrapped.contains("Default: binomial"), simulateHelp.out());
    assertTrue(unwrapped.contains("Default: 4MiB"), simulateHelp.out());
  }

  private static void assertUsageError(CliRun run, String problem) {
    assertEquals(2, run.exitCode(), run.err());
    assertEquals("", run.out());
    assertEquals(1, run.err().lines().count(), "one line: " + run.err());
    assertTrue(run.err().contains(problem), run.err());
    assertFalse(run.err().contains("Exception"), run.err());
  }
}
