package io.iam.bench.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.bench.host.HostExperiment;
import io.iam.bench.host.HostExperimentChecks;
import io.iam.bench.host.HostRun;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code iam host-experiment --host hbase}: the policy runs as the column family's compaction policy
 * in the mini cluster for hundreds of equal flushes, and HBase's compactions are the simulator's
 * merges: the same merges and the same HFile counts after every flush, since the experiment lets
 * each flush's compactions finish before the next flush, as the model's steps do. One experiment
 * object keeps the cluster up between its runs, each on a table of its own, and stops it when
 * closed; that test runs first, so that no other holder keeps the cluster up.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HBaseHostExperimentTest {

  @Test
  @Order(1)
  void oneExperimentKeepsTheClusterUpBetweenRunsAndStopsItWhenClosed() throws Exception {
    HostExperiment.Spec spec = new HostExperiment.Spec("binomial", Map.of("max-components", "3"), 12, 100, 50);
    HostRun first;
    HostRun second;
    try (HBaseHostExperiment experiment = new HBaseHostExperiment()) {
      first = experiment.run(spec, f -> {});
      assertTrue(MiniCluster.running(), "the cluster stays up between runs");
      second = experiment.run(spec, f -> {});
      assertTrue(MiniCluster.running());
    }
    assertFalse(MiniCluster.running(), "closing the experiment stops the cluster nobody else holds");
    for (HostRun r : List.of(first, second)) {
      assertEquals(12, r.flushLengths().size(), r.toString());
      assertTrue(r.mergeLengths().size() > 0, r.toString());
      assertTrue(r.maxComponents() <= 4, "binomial k=3 holds at most k + 1 HFiles: " + r);
      // Each compaction read at least two HFiles, and the host says how long they were.
      assertTrue(r.mergeInputs() >= 2L * r.mergeLengths().size(), r.toString());
      assertTrue(r.mergeInputBytes() > r.bytesMerged() / 2, r.toString());
      assertTrue(Double.isFinite(r.bytesSavedPerMergedComponent()), r.toString());
    }
    assertNotEquals(first.describe(), second.describe(), "each run has a table of its own");
    assertTrue(first.describe().startsWith("table " + HBaseHostExperiment.TABLE + ","), first.describe());
    assertEquals(first.mergeLengths().size(), second.mergeLengths().size(), "the same merges on both tables");
  }

  @Test
  @Order(2)
  void binomialInHBaseMakesTheSimulatorsMergesOverHundredsOfFlushes() throws Exception {
    HostExperimentChecks.binomialMakesTheSimulatorsMerges("hbase", 200, 200,
        "store engine DefaultStoreEngine, compaction policy IamCompactionPolicy running binomial {max-components=4}");
  }

  @Test
  @Order(3)
  void anUnknownHostIsRefusedByName() {
    HostExperimentChecks.anUnknownHostIsRefusedByName("hbase");
  }
}
