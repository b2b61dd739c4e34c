package io.iam.bench.asterix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.cli.IamCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code iam host-experiment --host asterixdb}: the policy runs as the dataset's merge policy in the
 * embedded AsterixDB for hundreds of equal flushes, and the host's decisions are the simulator's:
 * the same merges and the same component counts after every flush, since the experiment lets each
 * flush's merges finish before the next flush, as the model's steps do.
 */
class AsterixHostExperimentTest {

  @Test
  void binomialInAsterixDbMakesTheSimulatorsMergesOverHundredsOfFlushes() throws Exception {
    StringWriter out = new StringWriter();
    CommandLine cl = IamCommand.newCommandLine();
    cl.setOut(new PrintWriter(out));
    int code = cl.execute("host-experiment", "--host", "asterixdb", "--policy", "binomial", "--k", "4",
        "--flushes", "200", "--records-per-flush", "400", "--no-progress", "--json");
    assertEquals(0, code, out.toString());
    List<String> lines = out.toString().lines().toList();
    JsonNode r = new ObjectMapper().readTree(lines.get(lines.size() - 1));
    JsonNode sim = r.path("simulated");
    assertEquals(200, r.path("flushes").asInt(), r.toString());
    assertTrue(r.path("describe").asText().contains("binomial {num-components=4}"), r.toString());
    assertTrue(r.path("merges").asInt() > 50, "merges: " + r);
    assertEquals(sim.path("merges").asInt(), r.path("merges").asInt(), "merges, host and simulator: " + r);
    assertEquals(sim.path("averageComponents").asDouble(), r.path("averageComponents").asDouble(), 1e-9, r.toString());
    assertEquals(sim.path("maxComponents").asInt(), r.path("maxComponents").asInt(), r.toString());
    assertTrue(r.path("maxComponents").asInt() <= 5, "binomial k=4 holds at most k + 1 components: " + r);
    double wa = (r.path("bytesFlushed").asDouble() + r.path("bytesMerged").asDouble()) / r.path("bytesFlushed").asDouble();
    assertEquals(wa, r.path("writeAmplification").asDouble(), 1e-9, r.toString());
    assertTrue(r.path("mergeMillis").asLong() > 0, r.toString());
    assertTrue(out.toString().contains("write amplification"), out.toString());
  }

  @Test
  void anUnknownHostIsRefusedByName() {
    StringWriter err = new StringWriter();
    CommandLine cl = IamCommand.newCommandLine();
    cl.setErr(new PrintWriter(err));
    int code = cl.execute("host-experiment", "--host", "cassandra", "--flushes", "3");
    assertEquals(2, code);
    assertTrue(err.toString().contains("--host cassandra is not one of [asterixdb]"), err.toString());
  }
}
