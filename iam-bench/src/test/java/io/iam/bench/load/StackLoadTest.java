package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.cli.CliRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code iam load --tree stack}: the engine's stack tree is a load target, its policy an engine option. */
class StackLoadTest {

  private static JsonNode load(Path dir, String policy) throws Exception {
    CliRun run = CliRun.of("load", "--tree", "stack", "--records", "20000", "--memtable", "256KiB",
        "--cache", "8MiB", "--reads", "2000", "-o", "stack-policy=" + policy, "-o", "stack-size-ratio=3", "--json",
        "--no-progress", "--dir", dir.toString());
    assertEquals(0, run.exitCode(), run.err());
    return new ObjectMapper().readTree(run.lastOutLine());
  }

  @Test
  void tieringWritesLessThanLevelingOnTheSameLoad(@TempDir Path dir) throws Exception {
    JsonNode tiering = load(dir.resolve("t"), "tiering");
    JsonNode leveling = load(dir.resolve("l"), "leveling");
    assertEquals("stack", tiering.get("tree").asText());
    assertEquals(20000, tiering.get("records").asLong());
    double wt = tiering.get("writeAmplification").asDouble();
    double wl = leveling.get("writeAmplification").asDouble();
    assertTrue(wt > 1.5, "tiering merged runs: " + tiering);
    assertTrue(wl > wt, "leveling rewrites a level's run at every arrival: " + wl + " vs " + wt);
  }

  @Test
  void anUnknownPolicyIsNamed(@TempDir Path dir) {
    CliRun run = CliRun.of("load", "--tree", "stack", "--records", "10", "-o", "stack-policy=fastest",
        "--no-progress", "--dir", dir.toString());
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("stack-policy") && run.err().contains("tiering"), run.err());
  }
}
