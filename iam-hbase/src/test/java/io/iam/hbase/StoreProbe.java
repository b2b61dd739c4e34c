package io.iam.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.CompactSplit;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Test helpers over the mini cluster: write rows while keeping a model of what the table must hold,
 * flush, wait for compactions to settle, list a store's files, and check every row against the
 * model.
 */
public final class StoreProbe {

  public static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");
  public static final int VALUE_BYTES = 1024;

  private final TableName table;
  /** What the table must hold: row key to value. */
  private final Map<String, byte[]> model = new TreeMap<>();
  private long written;

  public StoreProbe(TableName table) {
    this.table = table;
  }

  public TableName table() {
    return table;
  }

  /** The serialized bytes of the one cell {@link #writeNewRows} writes for {@code key}. */
  public static long cellBytes(String key) {
    return new org.apache.hadoop.hbase.KeyValue(Bytes.toBytes(key), FAMILY, QUALIFIER, 0L, new byte[VALUE_BYTES])
        .getSerializedSize();
  }

  /** Writes {@code rows} new, distinct rows and returns their keys. */
  public List<String> writeNewRows(int rows) throws IOException {
    List<String> keys = new ArrayList<>(rows);
    List<Put> puts = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      long n = written++;
      // A bijection on 32-bit ints: distinct rows in a scattered order.
      String key = String.format("row-%08x", (int) (n * 2654435761L));
      byte[] value = value(n);
      puts.add(new Put(Bytes.toBytes(key)).addColumn(FAMILY, QUALIFIER, value));
      model.put(key, value);
      keys.add(key);
    }
    try (Table t = MiniHBase.util().getConnection().getTable(table)) {
      t.put(puts);
    }
    return keys;
  }

  /** Overwrites {@code keys} with new values. */
  public void overwrite(List<String> keys) throws IOException {
    List<Put> puts = new ArrayList<>();
    for (String key : keys) {
      byte[] value = value(written++);
      puts.add(new Put(Bytes.toBytes(key)).addColumn(FAMILY, QUALIFIER, value));
      model.put(key, value);
    }
    try (Table t = MiniHBase.util().getConnection().getTable(table)) {
      t.put(puts);
    }
  }

  /** Deletes {@code keys}. */
  public void delete(List<String> keys) throws IOException {
    List<Delete> deletes = new ArrayList<>();
    for (String key : keys) {
      deletes.add(new Delete(Bytes.toBytes(key)));
      model.remove(key);
    }
    try (Table t = MiniHBase.util().getConnection().getTable(table)) {
      t.delete(deletes);
    }
  }

  /** The value of row number {@code n}: {@value #VALUE_BYTES} bytes that differ from row to row. */
  public static byte[] value(long n) {
    byte[] v = new byte[VALUE_BYTES];
    long x = n * 0x9E3779B97F4A7C15L + 1;
    for (int i = 0; i < v.length; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      v[i] = (byte) x;
    }
    return v;
  }

  /**
   * Flushes every region of the table as a full memstore does (HBase's {@code MemStoreFlusher}:
   * flush, then request a compaction if the store's policy says one is needed), and waits until no
   * compaction of the table is queued or running. ({@code Admin.flush} runs as a master procedure
   * since 2.6 and requests no compaction.)
   */
  public void flushAndSettle() throws Exception {
    MiniHBaseCluster cluster = MiniHBase.util().getMiniHBaseCluster();
    for (HRegion region : regions()) {
      HRegion.FlushResult result = region.flush(true);
      if (result.isCompactionNeeded()) {
        int server = cluster.getServerWith(region.getRegionInfo().getRegionName());
        cluster.getRegionServer(server).getCompactSplitThread()
            .requestSystemCompaction(region, "flush by test");
      }
    }
    awaitSettled();
  }

  /** Waits (up to a minute) until no compaction of the table is queued or running. */
  public void awaitSettled() throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    int quiet = 0;
    while (quiet < 3) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("compactions of " + table + " did not settle within a minute");
      }
      quiet = busy() ? 0 : quiet + 1;
      Thread.sleep(20);
    }
  }

  private boolean busy() {
    MiniHBaseCluster cluster = MiniHBase.util().getMiniHBaseCluster();
    for (HRegion region : cluster.getRegions(table)) {
      int server = cluster.getServerWith(region.getRegionInfo().getRegionName());
      if (server < 0) {
        return true; // moving
      }
      CompactSplit compactions = cluster.getRegionServer(server).getCompactSplitThread();
      for (HStore store : region.getStores()) {
        if (compactions.isUnderCompaction(store)) {
          return true;
        }
      }
      if (region.getCompactionState() != org.apache.hadoop.hbase.client.CompactionState.NONE) {
        return true;
      }
    }
    return false;
  }

  /** The table's regions. */
  public List<HRegion> regions() {
    return MiniHBase.util().getMiniHBaseCluster().getRegions(table);
  }

  /** The store of family {@code f} in the table's only region. */
  public HStore store() {
    List<HRegion> regions = regions();
    assertEquals(1, regions.size(), "regions of " + table);
    return regions.get(0).getStore(FAMILY);
  }

  /** The names of the store's files, oldest first (HBase keeps them ordered by sequence id). */
  public static List<String> fileNames(HStore store) {
    List<String> names = new ArrayList<>();
    for (HStoreFile f : store.getStorefiles()) {
      names.add(f.getPath().getName());
    }
    return names;
  }

  /** Reads the whole table and checks it holds exactly the model's rows and values. */
  public void verifyAllRows() throws IOException {
    Map<String, byte[]> seen = new TreeMap<>();
    try (Table t = MiniHBase.util().getConnection().getTable(table);
        ResultScanner scanner = t.getScanner(new Scan())) {
      for (Result r : scanner) {
        seen.put(Bytes.toString(r.getRow()), r.getValue(FAMILY, QUALIFIER));
      }
    }
    assertEquals(model.keySet(), seen.keySet(), "row keys of " + table);
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), seen.get(e.getKey()), "value of " + e.getKey());
    }
    assertTrue(model.size() > 0, "the test wrote rows");
  }

  public int modelRows() {
    return model.size();
  }

  /** The row keys the table must hold, in order. */
  public NavigableSet<String> modelKeys() {
    return new TreeSet<>(model.keySet());
  }
}
