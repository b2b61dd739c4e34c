package io.iam.bench.asterix;


import io.iam.bench.host.HostExperimentChecks;
import org.junit.jupiter.api.Test;

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
    HostExperimentChecks.anUnknownHostIsRefusedByName("asterixdb");
  }
}
