package io.iam.bench.asterix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.iam.bench.host.HostExperimentChecks;
import org.junit.jupiter.api.Test;

/**
 * {@code iam host-experiment --host asterixdb}: the policy runs as the dataset's merge policy in the
 * embedded AsterixDB for hundreds of equal flushes, and the host's decisions are the simulator's:
 * the same merges and the same component counts after every flush, since the experiment lets each
 * flush's merges finish before the next flush, as the model's steps do. With the component's fixed
 * bytes measured by the calibration and its pages uncompressed, the simulator's write amplification
 * is the host's within 1%.
 */
class AsterixHostExperimentTest {

  @Test
  void binomialInAsterixDbMakesTheSimulatorsMergesOverHundredsOfFlushes() throws Exception {
    JsonNode r = HostExperimentChecks.binomialMakesTheSimulatorsMerges("asterixdb", 200, 100,
        "binomial {num-components=4}");
    long fixed = r.path("simulated").path("fixedBytes").asLong();
    // Metadata and part-filled last pages of 4 KiB: a few pages of a flush of about 150 KiB.
    assertTrue(fixed > 4096 && fixed < 40_000, "fixed bytes: " + r);
    double simulated = r.path("simulated").path("writeAmplification").asDouble();
    assertEquals(simulated, r.path("writeAmplification").asDouble(), 0.01 * simulated, r.toString());
    // The host's merges wrote less than their inputs, as the calibration said.
    assertTrue(r.path("bytesSavedPerMergedComponent").asDouble() > 4096, r.toString());
  }

  /**
   * With two NCs the dataset is hash-partitioned over them, and each partition's primary index runs
   * the policy on its own: each makes its own simulator's merges over its own flushes, and the
   * point's figures are the two partitions' added up.
   */
  @Test
  void twoNodeControllersRunThePolicyPerPartitionAndReportEach() throws Exception {
    JsonNode r = HostExperimentChecks.binomialMakesTheSimulatorsMerges("asterixdb", 200, 400,
        "binomial {num-components=4}", "--ncs", "2");
    assertTrue(r.path("describe").asText().contains("2 NCs"), r.path("describe").asText());
    JsonNode nodes = r.path("nodes");
    assertEquals(2, nodes.size(), r.toString());
    assertEquals("asterix_nc1", nodes.get(0).path("node").asText());
    assertEquals("asterix_nc2", nodes.get(1).path("node").asText());
    long flushed = 0;
    long merges = 0;
    for (JsonNode n : nodes) {
      flushed += n.path("bytesFlushed").asLong();
      merges += n.path("merges").asLong();
    }
    assertEquals(r.path("bytesFlushed").asLong(), flushed, r.toString());
    assertEquals(r.path("merges").asLong(), merges, r.toString());
    double share = nodes.get(0).path("bytesFlushed").asDouble() / flushed;
    assertTrue(share > 0.4 && share < 0.6, "hash partitioning gives each NC about half the bytes: " + share);
  }

  @Test
  void anUnknownHostIsRefusedByName() {
    HostExperimentChecks.anUnknownHostIsRefusedByName("asterixdb");
  }
}
