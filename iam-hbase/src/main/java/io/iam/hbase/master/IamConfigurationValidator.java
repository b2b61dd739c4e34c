package io.iam.hbase.master;

import io.iam.hbase.config.CompactionSettings;
import io.iam.hbase.engine.EngineSettings;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.coprocessor.MasterCoprocessor;
import org.apache.hadoop.hbase.coprocessor.MasterCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.MasterObserver;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Refuses a table whose {@code iam.*} properties (the stack policies' {@code iam.compaction.*} and
 * the store engine's {@code iam.engine.*}) do not validate, when it is created or altered
 * (HBase runs {@code alter} and {@code Admin.modifyColumnFamily} through the same modify-table
 * hook), so a bad value reaches the client as an error and never a region server. Install it on
 * the master with {@code hbase.coprocessor.master.classes=io.iam.hbase.master.IamConfigurationValidator}.
 *
 * <p>It checks each column family with the properties its stores would see, layered as HBase
 * layers them for a store: the master's configuration, then the table's values, then the column
 * family's configuration, then its values.
 */
public class IamConfigurationValidator implements MasterCoprocessor, MasterObserver {

  @Override
  public Optional<MasterObserver> getMasterObserver() {
    return Optional.of(this);
  }

  @Override
  public void preCreateTable(ObserverContext<MasterCoprocessorEnvironment> ctx,
      TableDescriptor desc, RegionInfo[] regions) throws IOException {
    validate(ctx.getEnvironment().getConfiguration(), desc);
  }

  @Override
  public TableDescriptor preModifyTable(ObserverContext<MasterCoprocessorEnvironment> ctx,
      TableName tableName, TableDescriptor currentDescriptor, TableDescriptor newDescriptor)
      throws IOException {
    validate(ctx.getEnvironment().getConfiguration(), newDescriptor);
    return newDescriptor;
  }

  /**
   * Checks every column family of {@code table} under {@code base}.
   *
   * @throws DoNotRetryIOException naming the table, the column family and each bad property
   */
  public static void validate(Configuration base, TableDescriptor table)
      throws DoNotRetryIOException {
    for (ColumnFamilyDescriptor family : table.getColumnFamilies()) {
      Map<String, String> store = storeProperties(base, table, family);
      try {
        CompactionSettings.parse(store.entrySet());
        EngineSettings.parse(store.entrySet());
      } catch (IllegalArgumentException e) {
        throw new DoNotRetryIOException("table '" + table.getTableName().getNameAsString()
            + "', column family '" + family.getNameAsString() + "': " + e.getMessage());
      }
    }
  }

  /** The {@code iam.*} properties a store of {@code family} would see. */
  static Map<String, String> storeProperties(
      Configuration base, TableDescriptor table, ColumnFamilyDescriptor family) {
    Map<String, String> props = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : base) {
      putIam(props, e.getKey(), e.getValue());
    }
    table.getValues().forEach((k, v) -> putIam(props, Bytes.toString(k.get()), Bytes.toString(v.get())));
    family.getConfiguration().forEach((k, v) -> putIam(props, k, v));
    family.getValues().forEach((k, v) -> putIam(props, Bytes.toString(k.get()), Bytes.toString(v.get())));
    return props;
  }

  private static void putIam(Map<String, String> props, String key, String value) {
    if (key != null && key.startsWith("iam.") && value != null) {
      props.put(key, value);
    }
  }
}
