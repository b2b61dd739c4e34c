package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class SimulateTreeCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String... args) throws Exception {
    CliRun run = CliRun.of(args);
    assertEquals(0, run.exitCode(), run.err());
    assertEquals("", run.err());
    return JSON.readTree(run.lastOutLine());
  }

  @Test
  void lsaAppendsIntoInternalLevels() throws Exception {
    JsonNode r = json("simulate-tree", "--mode", "lsa", "--flushes", "300", "--json");

    assertEquals("lsa", r.get("mode").asText());
    assertEquals(300, r.get("flushes").asLong());
    assertEquals(10, r.get("t").asInt());
    assertEquals(100, r.get("nodeRecords").asLong());
    assertEquals(42, r.get("seed").asLong());
    assertTrue(r.get("writeAmplification").asDouble() >= 1, r.toString());
    JsonNode levels = r.get("levels");
    assertTrue(levels.size() >= 2, r.toString());
    for (int i = 0; i + 1 < levels.size(); i++) { // every level but the leaf level
      assertEquals(i + 1, levels.get(i).get("level").asInt());
      assertTrue(levels.get(i).get("writeAmplification").asDouble() < 1.3, levels.get(i).toString());
    }
  }

  @Test
  void aSmallerKMergesMoreAtTheMixedLevel() throws Exception {
    JsonNode k1 = json("simulate-tree", "--mode", "iam", "--m", "2", "--k", "1", "--seed", "7", "--json");
    JsonNode k3 = json("simulate-tree", "--mode", "iam", "--m", "2", "--k", "3", "--seed", "7", "--json");

    assertEquals(1, k1.get("k").asInt());
    assertEquals(2, k3.get("m").asInt());
    double wa1 = k1.get("levels").get(1).get("writeAmplification").asDouble();
    double wa3 = k3.get("levels").get(1).get("writeAmplification").asDouble();
    assertTrue(wa1 > wa3, "L2 k=1 " + wa1 + " vs k=3 " + wa3);
  }

  @Test
  void printsHeaderTableAndCounts() {
    CliRun run = CliRun.of("simulate-tree", "--mode", "lsm-merge", "--flushes", "200");

    assertEquals(0, run.exitCode(), run.err());
    assertTrue(run.outLines().get(0).startsWith("mode lsm-merge | t 10 | node 100 records | 200 flushes"), run.out());
    assertTrue(run.out().contains("write-amp"), run.out());
    assertTrue(run.out().contains("combines"), run.out());
    assertTrue(!run.lastOutLine().startsWith("{"), "no JSON without --json");
  }

  @Test
  void badValuesExitTwoNamingTheOption() {
    assertBad("--t", "simulate-tree", "--t", "1");
    assertBad("--flushes", "simulate-tree", "--mode", "lsa", "--flushes", "0");
    assertBad("--k", "simulate-tree", "--m", "2", "--k", "0");
    assertBad("--m", "simulate-tree", "--m", "0", "--k", "2");
    assertBad("--m", "simulate-tree", "--mode", "iam");
    assertBad("--k", "simulate-tree", "--m", "2");
    assertBad("--mode", "simulate-tree", "--mode", "btree");
  }

  private static void assertBad(String option, String... args) {
    CliRun run = CliRun.of(args);
    assertEquals(2, run.exitCode(), run.out() + run.err());
    assertEquals(1, run.err().lines().count(), run.err());
    assertTrue(run.err().contains(option), run.err());
    assertEquals("", run.out());
  }
}
