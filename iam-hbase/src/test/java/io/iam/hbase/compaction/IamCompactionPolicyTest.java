package io.iam.hbase.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.policy.MergePolicies;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.regionserver.StoreConfigInformation;
import org.junit.jupiter.api.Test;

/** The policy's construction, outside a region server. */
class IamCompactionPolicyTest {

  private static StoreConfigInformation store(long blockingFiles) {
    RegionInfo region = RegionInfoBuilder.newBuilder(TableName.valueOf("t")).build();
    return new StoreConfigInformation() {
      @Override public long getMemStoreFlushSize() { return 128L << 20; }
      @Override public long getStoreFileTtl() { return Long.MAX_VALUE; }
      @Override public long getCompactionCheckMultiplier() { return 1000; }
      @Override public long getBlockingFileCount() { return blockingFiles; }
      @Override public RegionInfo getRegionInfo() { return region; }
      @Override public String getColumnFamilyName() { return "f"; }
    };
  }

  @Test
  void buildsTheConfiguredKernelPolicy() {
    Configuration conf = new Configuration(false);
    conf.set("iam.compaction.policy", "minlatency");
    conf.set("iam.compaction.max-components", "3");
    IamCompactionPolicy p = new IamCompactionPolicy(conf, store(16));
    assertEquals("minlatency", p.kernelPolicy().name());
    assertEquals(3, p.kernelPolicy().maxComponents());
  }

  @Test
  void aBadConfigurationDoesNotThrowAndFallsBackToHBasesSelection() {
    Configuration conf = new Configuration(false);
    conf.set("iam.compaction.policy", "binomial");
    conf.set("iam.compaction.max-components", "-1");
    IamCompactionPolicy p = new IamCompactionPolicy(conf, store(16));
    assertNull(p.kernelPolicy(), "no kernel policy: the store keeps HBase's ratio-based selection");
  }

  @Test
  void warnsWhenBlockingStoreFilesIsBelowKPlusTwo() {
    var k6 = MergePolicies.create("binomial", Map.of("max-components", "6"));
    assertTrue(IamCompactionPolicy.blockingWarning(k6, 7).orElseThrow()
        .contains("hbase.hstore.blockingStoreFiles=7 is too low for binomial with k=6"));
    assertTrue(IamCompactionPolicy.blockingWarning(k6, 8).isEmpty());
    var prefix = MergePolicies.create("prefix", Map.of());
    assertTrue(IamCompactionPolicy.blockingWarning(prefix, 2).isEmpty(), "not depth-bounded");
  }

  @Test
  void notesThatHBasesThroughputLimitStaysNearItsLowerBoundForFewFiles() {
    var k6 = MergePolicies.create("binomial", Map.of("max-components", "6"));
    // HBase's defaults: pressure-aware, 50 to 100 MB/s, hbase.hstore.compaction.min 3, blocking 16.
    String note = ThroughputCheck.note(k6, new Configuration(false), 3, 16).orElseThrow();
    assertTrue(note.contains("50 to 100 MB/s"), note);
    assertTrue(note.contains("at most 7 files reaches a pressure of 0.31"), note);
    assertTrue(note.contains("share at most 65 MB/s"), note);
    assertTrue(note.contains("hbase.hstore.compaction.throughput.lower.bound"), note);

    Configuration raised = new Configuration(false);
    raised.setLong("hbase.hstore.compaction.throughput.lower.bound", 200L << 20);
    raised.setLong("hbase.hstore.compaction.throughput.higher.bound", 400L << 20);
    assertTrue(ThroughputCheck.note(k6, raised, 3, 16).orElseThrow().contains("share at most 262 MB/s"));

    Configuration unlimited = new Configuration(false);
    unlimited.set("hbase.regionserver.throughput.controller",
        "org.apache.hadoop.hbase.regionserver.throttle.NoLimitThroughputController");
    assertTrue(ThroughputCheck.note(k6, unlimited, 3, 16).isEmpty(), "no limit, nothing to note");
    assertTrue(ThroughputCheck.note(MergePolicies.create("prefix", Map.of()), new Configuration(false), 3, 16)
        .isEmpty(), "not depth-bounded");

    String tree = ThroughputCheck.noteForTree(new Configuration(false)).orElseThrow();
    assertTrue(tree.contains("an IAM tree reports a pressure of 0") && tree.contains("share at most 50 MB/s"), tree);
    assertTrue(ThroughputCheck.noteForTree(unlimited).isEmpty());
  }
}
