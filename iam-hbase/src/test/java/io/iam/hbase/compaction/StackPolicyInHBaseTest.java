package io.iam.hbase.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.policy.MergePlan;
import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.ReplayedFlushes;
import io.iam.core.sim.SimulationResult;
import io.iam.core.sim.Simulator;
import io.iam.hbase.MiniHBase;
import io.iam.hbase.StoreProbe;
import io.iam.hbase.config.CompactionSettings;
import io.iam.hbase.metrics.StoreWriteObserver;
import io.iam.hbase.metrics.StoreWriteStats;
import org.apache.hadoop.hbase.coprocessor.MetricsCoprocessor;
import org.apache.hadoop.hbase.metrics.Counter;
import org.apache.hadoop.hbase.metrics.MetricRegistries;
import org.apache.hadoop.hbase.metrics.MetricRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every stack policy inside a real HBase region server: many small flushes, each followed by the
 * compaction the policy asks for. HBase's decisions must equal iam-core's simulator on the same
 * flush sizes, the store must respect the policy's bound, the bytes HBase wrote must match the cost
 * model, and every row must read back.
 */
@ExtendWith(MiniHBase.class)
class StackPolicyInHBaseTest {

  private static final int FLUSHES = 20;
  private static final int ROWS_PER_FLUSH = 64;
  private static final int K = 4;

  static Stream<String> policies() {
    return MergePolicies.names().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void decidesLikeTheSimulatorAndKeepsEveryRow(String policyName) throws Exception {
    TableName name = TableName.valueOf("stack_" + policyName.replace('-', '_'));
    boolean hasK = MergePolicies.descriptor(policyName).options().find("max-components").isPresent();
    ColumnFamilyDescriptorBuilder family = ColumnFamilyDescriptorBuilder.newBuilder(StoreProbe.FAMILY)
        .setConfiguration(CompactionSettings.POLICY_KEY, policyName);
    if (hasK) {
      family.setConfiguration(CompactionSettings.PREFIX + "max-components", Integer.toString(K));
    }
    // The policy class is set on the table, the policy on the column family: both levels work.
    Admin admin = MiniHBase.util().getAdmin();
    admin.createTable(TableDescriptorBuilder.newBuilder(name)
        .setRegionSplitPolicyClassName(DisabledRegionSplitPolicy.class.getName())
        .setValue(DefaultStoreEngine.DEFAULT_COMPACTION_POLICY_CLASS_KEY,
            IamCompactionPolicy.class.getName())
        .setColumnFamily(family.build())
        .build());
    StoreProbe probe = new StoreProbe(name);
    HStore store = probe.store();
    IamCompactionPolicy installed = assertInstanceOf(IamCompactionPolicy.class,
        ((DefaultStoreEngine) store.getStoreEngine()).getCompactionPolicy());
    MergePolicy policy = installed.kernelPolicy();
    assertEquals(policyName, policy.name());

    List<Long> flushLengths = new ArrayList<>();
    List<Long> mergeLengths = new ArrayList<>();
    List<MergePlan> hbasePlans = new ArrayList<>();
    List<Integer> filesAfter = new ArrayList<>();
    StoreWriteStats.Snapshot last = stats(name);
    for (int i = 0; i < FLUSHES; i++) {
      probe.writeNewRows(ROWS_PER_FLUSH);
      List<String> before = StoreProbe.fileNames(store);
      probe.flushAndSettle();
      List<String> after = StoreProbe.fileNames(store);
      StoreWriteStats.Snapshot now = stats(name);
      flushLengths.add(now.flushedBytes() - last.flushedBytes());
      if (now.compactedBytes() > last.compactedBytes()) {
        mergeLengths.add(now.compactedBytes() - last.compactedBytes());
      }
      last = now;
      hbasePlans.add(inferPlan(before, after));
      filesAfter.add(after.size());
      if (policy.maxComponents() != Integer.MAX_VALUE) {
        assertTrue(after.size() <= policy.maxComponents(),
            "after flush " + (i + 1) + " the store holds " + after.size() + " files, k = "
                + policy.maxComponents());
      }
    }

    // The simulator, fed HBase's flush sizes and the sizes of the files HBase's merges wrote, makes
    // the same decisions, flush by flush.
    List<MergePlan> simulatedPlans = new ArrayList<>();
    SimulationResult sim = new Simulator(policy, new ReplayedFlushes("HBase", flushLengths, mergeLengths),
        Accounting.FLUSH_THEN_MERGE, FLUSHES, null)
        .observe((snapshot, plan) -> simulatedPlans.add(plan)).run(FLUSHES);
    assertEquals(simulatedPlans, hbasePlans, "HBase's merges vs the simulator's, flush by flush");
    assertEquals(sim.series().get(sim.series().size() - 1).components(),
        filesAfter.get(FLUSHES - 1), "store files at the end");
    assertTrue(hbasePlans.stream().anyMatch(p -> !p.isNone()), "the policy merged something");

    // The cost model (a merge writes the sum of its inputs) predicts HBase's own bytes written;
    // real merges are a little smaller, by each input's index, Bloom filter and trailer.
    List<MergePlan> modelPlans = new ArrayList<>();
    SimulationResult model = new Simulator(policy, new ReplayedFlushes("HBase", flushLengths, null),
        Accounting.FLUSH_THEN_MERGE, FLUSHES, null).observe((snapshot, plan) -> modelPlans.add(plan)).run(FLUSHES);
    // A policy that decides on sizes (concurrent, on files this small) may decide otherwise on the
    // model's sizes, the sums of the inputs; its bytes are then compared with the simulator that
    // replays HBase's merged sizes, whose decisions are HBase's (checked above).
    SimulationResult expected = modelPlans.equals(hbasePlans) ? model : sim;
    StoreWriteStats.Snapshot counted = stats(name);
    double realWa = counted.writeAmplification();
    assertEquals(2 * FLUSHES - hbasePlans.stream().filter(MergePlan::isNone).count(),
        counted.fileCounts().size(), "one file-count sample per flush and per merge output");
    if (policy.maxComponents() != Integer.MAX_VALUE) {
      // The observer samples the file count after every flush and every compaction: between a
      // flush and its merge the store holds at most k + 1 files.
      assertTrue(counted.maxStoreFiles() <= policy.maxComponents() + 1,
          "most files seen by the observer: " + counted.maxStoreFiles());
    }
    assertEquals(expected.writeAmplification(), realWa, 0.1 * expected.writeAmplification(),
        "write amplification: HBase " + realWa + ", cost model " + expected.writeAmplification());
    // The same bytes reach the coprocessor metrics HBase exports over JMX.
    MetricRegistry registry = MetricRegistries.global().get(MetricsCoprocessor
        .createRegistryInfoForRegionCoprocessor(StoreWriteObserver.class.getName())).orElseThrow();
    String prefix = "iam." + name.getNameAsString() + ".f.";
    assertEquals(counted.flushedBytes(),
        ((Counter) registry.get(prefix + "flushedBytes").orElseThrow()).getCount());
    assertEquals(counted.compactedBytes(),
        ((Counter) registry.get(prefix + "compactedBytes").orElseThrow()).getCount());
    probe.verifyAllRows();
    System.out.printf("hbase-policy %s: files at end %d, most files %d, merges %d, write amplification %.2f (cost model %.2f)%n",
        policyName, filesAfter.get(FLUSHES - 1), counted.maxStoreFiles(),
        hbasePlans.stream().filter(p -> !p.isNone()).count(), realWa, model.writeAmplification());
  }

  static StoreWriteStats.Snapshot stats(TableName table) {
    return StoreWriteStats.total(table.getNameAsString(), "f");
  }

  /**
   * The merge HBase ran after one flush, seen from the store's files before the flush and after the
   * compaction settled: the policy saw {@code before} plus the flushed file, F.
   */
  static MergePlan inferPlan(List<String> before, List<String> after) {
    Set<String> old = new HashSet<>(before);
    List<String> fresh = after.stream().filter(n -> !old.contains(n)).toList();
    List<Integer> removed = new ArrayList<>();
    Set<String> kept = new HashSet<>(after);
    for (int i = 0; i < before.size(); i++) {
      if (!kept.contains(before.get(i))) {
        removed.add(i);
      }
    }
    if (removed.isEmpty()) {
      assertEquals(1, fresh.size(), "a flush without a merge adds one file: " + before + " -> " + after);
      return MergePlan.none();
    }
    int from = removed.get(0);
    int to = removed.get(removed.size() - 1);
    assertEquals(to - from + 1, removed.size(), "merged files are contiguous: " + before + " -> " + after);
    // Two new files: the merge output and F, which survived; one: F went into the merge.
    return fresh.size() == 2 ? MergePlan.merge(from, to) : MergePlan.merge(from, before.size());
  }
}
