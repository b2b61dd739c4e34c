package io.iam.bench.asterix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.cli.IamCommand;
import io.iam.bench.host.HostExperimentChecks;
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
    HostExperimentChecks.binomialMakesTheSimulatorsMerges("asterixdb", 200, 400, "binomial {num-components=4}");
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
