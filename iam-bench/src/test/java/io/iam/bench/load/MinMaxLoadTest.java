package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.cli.CliRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code iam load --tree minmax}: the engine's Min-Max tree is a load target. */
class MinMaxLoadTest {

  @Test
  void minmaxIsRegisteredUnderItsTreeName() {
    assertTrue(LoadTargets.names().contains("minmax"), LoadTargets.names().toString());
  }

  @Test
  void minmaxLoadWithReadsReportsTheBuckets(@TempDir Path dir) throws Exception {
    CliRun run = CliRun.of("load", "--tree", "minmax", "--records", "20000", "--memtable", "1MiB",
        "--cache", "8MiB", "--reads", "5000", "-o", "minmax-cache=2000", "-o", "minmax-window=200", "--json",
        "--no-progress", "--dir", dir.toString());
    assertEquals(0, run.exitCode(), run.err());
    JsonNode r = new ObjectMapper().readTree(run.lastOutLine());
    assertEquals("minmax", r.get("tree").asText());
    assertEquals(20000, r.get("records").asLong());
    String stats = r.get("engineStats").asText();
    assertTrue(stats.contains("min-max: "), stats);
    assertTrue(!stats.contains("min-max: 0 buckets"), stats);
  }
}
