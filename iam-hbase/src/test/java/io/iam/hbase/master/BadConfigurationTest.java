package io.iam.hbase.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.hbase.MiniHBase;
import io.iam.hbase.StoreProbe;
import io.iam.hbase.compaction.IamCompactionPolicy;
import io.iam.hbase.config.CompactionSettings;
import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A bad policy name or option is refused when a table is created or altered, with a message that
 * names the property, and the cluster stays healthy: no region in transition, both servers up,
 * the existing table still serving.
 */
@ExtendWith(MiniHBase.class)
class BadConfigurationTest {

  private static TableDescriptor table(String name, String key, String value) {
    return TableDescriptorBuilder.newBuilder(TableName.valueOf(name))
        .setRegionSplitPolicyClassName(DisabledRegionSplitPolicy.class.getName())
        .setValue(DefaultStoreEngine.DEFAULT_COMPACTION_POLICY_CLASS_KEY,
            IamCompactionPolicy.class.getName())
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(StoreProbe.FAMILY)
            .setConfiguration(key, value).build())
        .build();
  }

  private static String refusal(ThrowingCall call) {
    IOException e = assertThrows(IOException.class, call::run);
    return e.getMessage();
  }

  interface ThrowingCall {
    void run() throws IOException;
  }

  @Test
  void createTableWithABadPolicyOrValueIsRefusedNamingTheProperty() throws Exception {
    Admin admin = MiniHBase.util().getAdmin();
    String m = refusal(() -> admin.createTable(table("bad_policy", CompactionSettings.POLICY_KEY, "fastest")));
    assertTrue(m.contains("table 'bad_policy', column family 'f'"), m);
    assertTrue(m.contains("iam.compaction.policy='fastest'"), m);
    assertFalse(admin.tableExists(TableName.valueOf("bad_policy")));

    m = refusal(() -> admin.createTable(table("bad_k", "iam.compaction.max-components", "0")));
    assertTrue(m.contains("iam.compaction.max-components=0 is out of range"), m);
    m = refusal(() -> admin.createTable(table("bad_key", "iam.compaction.maxcomponents", "4")));
    assertTrue(m.contains("unknown property 'iam.compaction.maxcomponents'"), m);
    assertFalse(admin.tableExists(TableName.valueOf("bad_k")));
    m = refusal(() -> admin.createTable(table("bad_engine", "iam.engine.tree", "leveled")));
    assertTrue(m.contains("iam.engine.tree"), m);
    assertFalse(admin.tableExists(TableName.valueOf("bad_engine")));
    assertHealthy();
  }

  @Test
  void alteringALiveColumnFamilyToABadValueIsRefusedAndTheTableKeepsServing() throws Exception {
    Admin admin = MiniHBase.util().getAdmin();
    TableName name = TableName.valueOf("alter_bad");
    admin.createTable(table("alter_bad", CompactionSettings.POLICY_KEY, "binomial"));
    StoreProbe probe = new StoreProbe(name);
    probe.writeNewRows(50);
    probe.flushAndSettle();

    ColumnFamilyDescriptor current = admin.getDescriptor(name).getColumnFamily(StoreProbe.FAMILY);
    String m = refusal(() -> admin.modifyColumnFamily(name,
        ColumnFamilyDescriptorBuilder.newBuilder(current)
            .setConfiguration("iam.compaction.max-components", "1000").build()));
    assertTrue(m.contains("iam.compaction.max-components=1000 is out of range"), m);
    assertEquals(current, admin.getDescriptor(name).getColumnFamily(StoreProbe.FAMILY),
        "the column family is unchanged");
    assertHealthy();
    probe.writeNewRows(50);
    probe.flushAndSettle();
    probe.verifyAllRows();
  }

  private static void assertHealthy() throws Exception {
    var cluster = MiniHBase.util().getMiniHBaseCluster();
    assertEquals(MiniHBase.REGION_SERVERS, cluster.getLiveRegionServerThreads().size(), "live region servers");
    assertTrue(cluster.getMaster().getAssignmentManager().getRegionStates()
        .getRegionsInTransition().isEmpty(), "regions in transition");
  }
}
