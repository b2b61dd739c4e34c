package io.iam.bench.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.cli.IamCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * The check every host of {@code iam host-experiment} passes: binomial at k = 4 over hundreds of
 * flushes makes the simulator's merges, holds the simulator's component counts after every flush
 * (at most k + 1), and reports write amplification as (flushed + merged) / flushed of its own
 * byte counts; and an unknown host is refused by name.
 */
public final class HostExperimentChecks {

  private HostExperimentChecks() {}

  /**
   * Runs the command on {@code host} and checks the run.
   *
   * @param describes a text the host's description of the store must hold (the policy as the host
   *     holds it)
   * @return the run's JSON
   */
  public static JsonNode binomialMakesTheSimulatorsMerges(String host, int flushes, int recordsPerFlush,
      String describes, String... extra) throws Exception {
    StringWriter out = new StringWriter();
    CommandLine cl = IamCommand.newCommandLine();
    cl.setOut(new PrintWriter(out));
    List<String> args = new java.util.ArrayList<>(List.of("host-experiment", "--host", host, "--policy", "binomial",
        "--k", "4", "--flushes", Integer.toString(flushes), "--records-per-flush", Integer.toString(recordsPerFlush),
        "--no-progress", "--json"));
    args.addAll(List.of(extra));
    int code = cl.execute(args.toArray(new String[0]));
    assertEquals(0, code, out.toString());
    List<String> lines = out.toString().lines().toList();
    JsonNode r = new ObjectMapper().readTree(lines.get(lines.size() - 1));
    assertEquals(host, r.path("host").asText(), r.toString());
    assertTrue(r.path("describe").asText().contains(describes), r.path("describe").asText());
    assertTrue(out.toString().contains("write amplification"), out.toString());
    checkBinomialPoint(r, flushes);
    for (JsonNode node : r.path("nodes")) {
      checkBinomialPoint(node, flushes);
    }
    return r;
  }

  /** The checks of {@link #binomialMakesTheSimulatorsMerges} on one point, or one partition of it. */
  private static void checkBinomialPoint(JsonNode r, int flushes) {
    JsonNode sim = r.path("simulated");
    assertEquals(flushes, r.path("flushes").asInt(), r.toString());
    assertTrue(r.path("merges").asInt() > flushes / 4, "merges: " + r);
    assertEquals(sim.path("merges").asInt(), r.path("merges").asInt(), "merges, host and simulator: " + r);
    assertEquals(sim.path("averageComponents").asDouble(), r.path("averageComponents").asDouble(), 1e-9, r.toString());
    assertEquals(sim.path("maxComponents").asInt(), r.path("maxComponents").asInt(), r.toString());
    assertTrue(r.path("maxComponents").asInt() <= 5, "binomial k=4 holds at most k + 1 components: " + r);
    double wa = (r.path("bytesFlushed").asDouble() + r.path("bytesMerged").asDouble()) / r.path("bytesFlushed").asDouble();
    assertEquals(wa, r.path("writeAmplification").asDouble(), 1e-9, r.toString());
    assertTrue(r.path("mergeMillis").asLong() > 0, r.toString());
  }

  /** Checks that {@code --host cassandra} is refused with a message naming {@code host}, the only one. */
  public static void anUnknownHostIsRefusedByName(String host) {
    StringWriter err = new StringWriter();
    CommandLine cl = IamCommand.newCommandLine();
    cl.setErr(new PrintWriter(err));
    assertEquals(2, cl.execute("host-experiment", "--host", "cassandra", "--flushes", "3"));
    assertTrue(err.toString().contains("--host cassandra is not one of [" + host + "]"), err.toString());
  }
}
