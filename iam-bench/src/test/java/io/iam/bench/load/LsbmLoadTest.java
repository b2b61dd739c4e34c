package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.cli.CliRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code iam load --tree lsbm}: the engine's leveled tree with LSbM's compaction buffer is a load target. */
class LsbmLoadTest {

  @Test
  void lsbmIsRegisteredUnderItsTreeName() {
    assertTrue(LoadTargets.names().contains("lsbm"), LoadTargets.names().toString());
  }

  @Test
  void lsbmLoadWithReadsReportsTheBuffer(@TempDir Path dir) throws Exception {
    CliRun run = CliRun.of("load", "--tree", "lsbm", "--records", "20000", "--memtable", "1MiB",
        "--cache", "8MiB", "--reads", "5000", "--json", "--no-progress", "--dir", dir.toString());
    assertEquals(0, run.exitCode(), run.err());
    JsonNode r = new ObjectMapper().readTree(run.lastOutLine());
    assertEquals("lsbm", r.get("tree").asText());
    assertEquals(20000, r.get("records").asLong());
    String stats = r.get("engineStats").asText();
    assertTrue(stats.contains("buffer: lookups"), stats);
  }
}
