package io.iam.hbase.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.MergeSchedule;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.ReplayedFlushes;
import io.iam.core.sim.Simulator;
import io.iam.hbase.MiniHBase;
import io.iam.hbase.StoreProbe;
import io.iam.hbase.config.CompactionSettings;
import io.iam.hbase.metrics.StoreWriteStats;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Binomial k = 6 in HBase's default engine under a real load: hundreds of memstore flushes through
 * HBase's own flush path, with merges running while flushes land. The policy must decide after every
 * flush as the cost model does, every merge it decides must run (the last ones without another
 * flush to trigger them), and HBase's bytes written must be the simulator's for the same flushes.
 */
@ExtendWith(MiniHBase.class)
class PolicyUnderLoadTest {

  private static final long FLUSH_BYTES = 128L << 10;
  private static final int ROWS = 400 * 128;
  private static final int BATCH = 32;
  private static final int K = 6;

  @Test
  void everyFlushGetsItsDecisionAndHBaseWritesWhatTheSimulatorWrites() throws Exception {
    TableName name = TableName.valueOf("binomial_under_load");
    MiniHBase.util().getAdmin().createTable(TableDescriptorBuilder.newBuilder(name)
        .setMemStoreFlushSize(FLUSH_BYTES).setValue("hbase.table.sanity.checks", "false")
        .setRegionSplitPolicyClassName(DisabledRegionSplitPolicy.class.getName())
        .setValue(DefaultStoreEngine.DEFAULT_COMPACTION_POLICY_CLASS_KEY, IamCompactionPolicy.class.getName())
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(StoreProbe.FAMILY)
            .setConfiguration(CompactionSettings.POLICY_KEY, "binomial")
            .setConfiguration(CompactionSettings.PREFIX + "max-components", Integer.toString(K)).build())
        .build());
    MiniHBase.util().waitTableAvailable(name);
    StoreProbe probe = new StoreProbe(name);
    HStore store = probe.store();
    IamCompactionPolicy policy = assertInstanceOf(IamCompactionPolicy.class,
        ((DefaultStoreEngine) store.getStoreEngine()).getCompactionPolicy());
    MergeSchedule schedule = policy.schedule();

    int mostScheduled = 0;
    for (int i = 0; i < ROWS; i += BATCH) {
      probe.writeNewRows(BATCH);
      mostScheduled = Math.max(mostScheduled, schedule.scheduled());
    }
    probe.regions().get(0).flush(true);
    // No more flushes: the merges still scheduled must run without one.
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (schedule.scheduled() > 0) {
      assertTrue(System.nanoTime() < deadline, "merges still scheduled after a minute: " + schedule.scheduled());
      Thread.sleep(50);
    }
    probe.awaitSettled();

    StoreWriteStats.Snapshot written = StoreWriteStats.total(name.getNameAsString(), "f");
    List<Long> flushes = StoreWriteStats.flushLengths(name.getNameAsString(), "f");
    assertTrue(flushes.size() >= 300, "flushes: " + flushes.size());
    assertEquals(written.flushes(), flushes.size());
    assertTrue(mostScheduled >= 2, "flushes landed while merges ran, so merges queued: " + mostScheduled);
    assertEquals(0, schedule.restarts(), "the schedule never lost track: " + schedule.lastRestart());
    assertEquals(flushes.size(), schedule.decisions(), "one decision per flush");
    assertTrue(store.getStorefilesCount() <= K, "files at the end: " + store.getStorefilesCount());

    MergePolicy kernel = MergePolicies.create("binomial", java.util.Map.of("max-components", Integer.toString(K)));
    double simulated = new Simulator(kernel, new ReplayedFlushes("HBase", flushes, null),
        Accounting.FLUSH_THEN_MERGE, flushes.size(), null).run(flushes.size()).writeAmplification();
    double real = written.writeAmplification();
    System.out.printf("binomial under load: %d flushes, most merges scheduled %d, HBase %.3f, simulator %.3f%n",
        flushes.size(), mostScheduled, real, simulated);
    assertEquals(simulated, real, 0.05 * simulated, "HBase's bytes written over flushed vs the simulator's");
    probe.verifyAllRows();
  }
}
