package io.iam.hbase.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.hbase.MiniHBase;
import io.iam.hbase.StoreProbe;
import io.iam.hbase.config.CompactionSettings;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.compactions.ExploringCompactionPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Switching a live column family to a stack policy, and HBase's major compactions under one. */
@ExtendWith(MiniHBase.class)
class LiveSwitchAndMajorCompactionTest {

  private static StoreProbe create(String table, ColumnFamilyDescriptor family) throws Exception {
    TableName name = TableName.valueOf(table);
    MiniHBase.util().getAdmin().createTable(TableDescriptorBuilder.newBuilder(name)
        .setRegionSplitPolicyClassName(DisabledRegionSplitPolicy.class.getName())
        .setColumnFamily(family).build());
    return new StoreProbe(name);
  }

  private static ColumnFamilyDescriptorBuilder binomial(ColumnFamilyDescriptorBuilder b, int k) {
    return b.setConfiguration(DefaultStoreEngine.DEFAULT_COMPACTION_POLICY_CLASS_KEY,
            IamCompactionPolicy.class.getName())
        .setConfiguration(CompactionSettings.POLICY_KEY, "binomial")
        .setConfiguration(CompactionSettings.PREFIX + "max-components", Integer.toString(k));
  }

  @Test
  void aLiveColumnFamilySwitchesFromHBasesExploringToBinomialAndKeepsItsData() throws Exception {
    // HBase's own Exploring policy, told to wait for 10 files, so the switch is visible.
    StoreProbe probe = create("live_switch", ColumnFamilyDescriptorBuilder
        .newBuilder(StoreProbe.FAMILY).setConfiguration("hbase.hstore.compaction.min", "10").build());
    assertInstanceOf(ExploringCompactionPolicy.class,
        ((DefaultStoreEngine) probe.store().getStoreEngine()).getCompactionPolicy());
    for (int i = 0; i < 8; i++) {
      probe.writeNewRows(32);
      probe.flushAndSettle();
    }
    assertEquals(8, StoreProbe.fileNames(probe.store()).size(), "HBase's policy kept 8 files");
    probe.verifyAllRows();

    Admin admin = MiniHBase.util().getAdmin();
    ColumnFamilyDescriptor current = admin.getDescriptor(probe.table()).getColumnFamily(StoreProbe.FAMILY);
    admin.modifyColumnFamily(probe.table(),
        binomial(ColumnFamilyDescriptorBuilder.newBuilder(current), 3).build());
    MiniHBase.util().waitUntilNoRegionsInTransition(60_000);

    // The region reopened with the new store configuration.
    HStore store = probe.store();
    IamCompactionPolicy policy = assertInstanceOf(IamCompactionPolicy.class,
        ((DefaultStoreEngine) store.getStoreEngine()).getCompactionPolicy());
    assertEquals("binomial", policy.kernelPolicy().name());
    probe.verifyAllRows();
    for (int i = 0; i < 12; i++) {
      probe.writeNewRows(32);
      probe.flushAndSettle();
      int files = StoreProbe.fileNames(store).size();
      assertTrue(files <= 3, "after switching, flush " + (i + 1) + " left " + files + " files");
    }
    probe.verifyAllRows();
  }

  @Test
  void majorCompactionAndDeletesBehaveAsInHBase() throws Exception {
    StoreProbe probe = create("major_deletes",
        binomial(ColumnFamilyDescriptorBuilder.newBuilder(StoreProbe.FAMILY), 4).build());
    List<String> first = probe.writeNewRows(40);
    probe.flushAndSettle();
    for (int i = 0; i < 5; i++) {
      probe.writeNewRows(40);
      probe.flushAndSettle();
    }
    probe.delete(first.subList(0, 20));
    probe.overwrite(first.subList(20, 30));
    probe.flushAndSettle();
    probe.verifyAllRows();

    Admin admin = MiniHBase.util().getAdmin();
    admin.majorCompact(probe.table());
    HStore store = probe.store();
    MiniHBase.util().waitFor(60_000, () -> StoreProbe.fileNames(store).size() == 1
        && probe.regions().get(0).getCompactionState()
            == org.apache.hadoop.hbase.client.CompactionState.NONE);
    probe.awaitSettled();
    probe.verifyAllRows();
    // A major compaction leaves one file without delete markers or overwritten versions.
    int cells = 0;
    try (Table t = MiniHBase.util().getConnection().getTable(probe.table());
        ResultScanner scanner = t.getScanner(new Scan().setRaw(true).readAllVersions())) {
      for (Result r : scanner) {
        for (Cell c : r.rawCells()) {
          assertEquals(Cell.Type.Put, c.getType(), "only puts survive a major compaction");
          cells++;
        }
      }
    }
    assertEquals(probe.modelRows(), cells, "one cell per live row");
  }
}
