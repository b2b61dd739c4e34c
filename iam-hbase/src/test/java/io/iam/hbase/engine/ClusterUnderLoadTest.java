package io.iam.hbase.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.hbase.MiniHBase;
import io.iam.hbase.StoreProbe;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * IAM's store engine on three region servers, a table pre-split into six regions and a writer that
 * keeps loading while servers die, regions split and merge, and the table's engine is switched.
 * Every acknowledged row must read back, and every store's tree must be sound once it settles.
 * {@code -Diam.cluster.kills=N} (10 under {@code -Plong}) sets how many servers die mid-load.
 */
@ExtendWith(MiniHBase.class)
class ClusterUnderLoadTest {

  private static final byte[] FAMILY = StoreProbe.FAMILY;
  private static final byte[] COLUMN = Bytes.toBytes("q");
  private static final byte[][] SPLITS = {Bytes.toBytes("row-3"), Bytes.toBytes("row-6"), Bytes.toBytes("row-9"),
      Bytes.toBytes("row-c"), Bytes.toBytes("row-e")};
  /** Where the split-and-merge rounds split: inside the first region, then inside each of the others. */
  private static final String[] SPLIT_POINTS = {"row-18", "row-48", "row-78", "row-a8", "row-d8"};
  private static final Map<String, String> SMALL_TREE = Map.of(StoreEngine.STORE_ENGINE_CLASS_KEY,
      IamStoreEngine.class.getName(), EngineSettings.PREFIX + "fanout", "3", EngineSettings.PREFIX + "node-capacity",
      "96KiB");

  /** Writes batches of new rows from a thread of its own and remembers each acknowledged row. */
  private static final class Loader implements AutoCloseable {
    private final TableName table;
    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    private final AtomicLong next = new AtomicLong();
    private final List<Throwable> failures = new ArrayList<>();
    private volatile boolean running = true;
    private final Thread thread;

    Loader(TableName table) {
      this.table = table;
      this.thread = new Thread(this::run, "loader-" + table);
      thread.start();
    }

    private void run() {
      try (Table t = MiniHBase.util().getConnection().getTable(table)) {
        while (running) {
          Map<String, Long> batch = new HashMap<>();
          List<Put> puts = new ArrayList<>();
          for (int i = 0; i < 32; i++) {
            long n = next.getAndIncrement();
            String key = String.format("row-%08x", (int) (n * 2654435761L));
            batch.put(key, n);
            puts.add(new Put(Bytes.toBytes(key)).addColumn(FAMILY, COLUMN, StoreProbe.value(n)));
          }
          try {
            t.put(puts);
            acknowledged.putAll(batch);
          } catch (IOException e) {
            synchronized (failures) {
              failures.add(e); // not acknowledged: the rows may or may not be there
            }
          }
        }
      } catch (IOException e) {
        synchronized (failures) {
          failures.add(e);
        }
      }
    }

    /** Waits until at least {@code rows} more rows are acknowledged. */
    void awaitMore(int rows) throws InterruptedException {
      int target = acknowledged.size() + rows;
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (acknowledged.size() < target) {
        assertTrue(System.nanoTime() < deadline, "the loader stalled at " + acknowledged.size() + " rows");
        Thread.sleep(20);
      }
    }

    @Override
    public void close() throws InterruptedException {
      running = false;
      thread.join(180_000);
    }

    /** Reads the whole table: every acknowledged row holds its value. */
    void verify() throws IOException {
      Map<String, byte[]> seen = new HashMap<>();
      try (Table t = MiniHBase.util().getConnection().getTable(table); ResultScanner s = t.getScanner(new Scan())) {
        for (Result r : s) {
          seen.put(Bytes.toString(r.getRow()), r.getValue(FAMILY, COLUMN));
        }
      }
      assertTrue(acknowledged.size() > 1000, "rows acknowledged: " + acknowledged.size());
      for (Map.Entry<String, Long> e : acknowledged.entrySet()) {
        assertArrayEquals(StoreProbe.value(e.getValue()), seen.get(e.getKey()), "row " + e.getKey());
      }
    }
  }

  private static TableName table(String name, Map<String, String> family, boolean splits) throws Exception {
    ColumnFamilyDescriptorBuilder f = ColumnFamilyDescriptorBuilder.newBuilder(FAMILY);
    family.forEach(f::setConfiguration);
    TableName t = TableName.valueOf(name);
    TableDescriptorBuilder d = TableDescriptorBuilder.newBuilder(t).setColumnFamily(f.build())
        .setMemStoreFlushSize(128L << 10).setValue("hbase.table.sanity.checks", "false");
    // Regions split only when asked: HBase would split these small regions on its own at 2 flush
    // sizes, and DisabledRegionSplitPolicy refuses a split asked for too.
    d.setRegionSplitPolicyClassName(splits ? ConstantSizeRegionSplitPolicy.class.getName()
        : DisabledRegionSplitPolicy.class.getName()).setMaxFileSize(10L << 30);
    MiniHBase.util().getAdmin().createTable(d.build(), SPLITS);
    MiniHBase.util().waitTableAvailable(t);
    return t;
  }

  private static List<HRegion> regions(TableName t) {
    return MiniHBase.util().getMiniHBaseCluster().getRegions(t);
  }

  /** Flushes every region and waits until no store of the table has a step to run. */
  private static void settle(TableName t) throws Exception {
    MiniHBase.util().waitUntilNoRegionsInTransition(120_000);
    MiniHBaseCluster cluster = MiniHBase.util().getMiniHBaseCluster();
    for (HRegion r : regions(t)) {
      r.flush(true);
      HRegionServer rs = cluster.getRegionServer(cluster.getServerWith(r.getRegionInfo().getRegionName()));
      rs.getCompactSplitThread().requestSystemCompaction(r, "test settle");
    }
    // A flush asked for while another runs (HBase's flusher, or one waiting for level 1) does
    // nothing: flush again until every memstore is empty, so no edit is left for a WAL replay.
    MiniHBase.util().waitFor(120_000, 200, () -> {
      boolean settled = true;
      for (HRegion r : regions(t)) {
        HStore s = r.getStore(FAMILY);
        if (r.getMemStoreDataSize() > 0) {
          r.flush(true);
          settled = false;
        } else {
          settled &= r.getCompactionState() == org.apache.hadoop.hbase.client.CompactionState.NONE
              && !(s.getStoreEngine() instanceof IamStoreEngine e && ((IamStoreFileManager) e.getStoreFileManager()).pendingWork());
        }
      }
      return settled;
    });
  }

  /**
   * Waits until no region of {@code t} holds reference files (a region holding them can neither split
   * nor merge): the trees adopt them first, unplaced files going before any other step, while the
   * load goes on.
   */
  private static void adoptReferences(TableName t) throws Exception {
    MiniHBaseCluster cluster = MiniHBase.util().getMiniHBaseCluster();
    for (HRegion r : regions(t)) {
      cluster.getRegionServer(cluster.getServerWith(r.getRegionInfo().getRegionName())).getCompactSplitThread()
          .requestSystemCompaction(r, "test: adopt references");
    }
    MiniHBase.util().waitFor(120_000, 200, () -> regions(t).stream().noneMatch(r -> r.getStore(FAMILY).hasReferences()));
    for (HRegion r : regions(t)) {
      r.getStore(FAMILY).closeAndArchiveCompactedFiles();
    }
  }

  /** The tree of every IAM store of the table, by region. */
  private static Map<String, List<String>> trees(TableName t) {
    Map<String, List<String>> out = new HashMap<>();
    for (HRegion r : regions(t)) {
      out.put(r.getRegionInfo().getEncodedName(), EngineProbe.signature(EngineProbe.layout(r.getStore(FAMILY))));
    }
    return out;
  }

  /** Kills a region server that holds regions of {@code t} but not hbase:meta, and starts another. */
  private static ServerName killOne(TableName t) throws Exception {
    MiniHBaseCluster cluster = MiniHBase.util().getMiniHBaseCluster();
    ServerName meta = cluster.getServerHoldingMeta();
    spreadOver(t, meta);
    // Indexes run over every server the cluster started, dead ones included: servers started after
    // earlier kills come after them.
    for (int i = 0; i < cluster.getRegionServerThreads().size(); i++) {
      HRegionServer rs = cluster.getRegionServer(i);
      if (!rs.getServerName().equals(meta) && !rs.isAborted() && !rs.isStopped() && !rs.getRegions(t).isEmpty()) {
        cluster.abortRegionServer(i);
        cluster.waitOnRegionServer(i);
        cluster.startRegionServer();
        return rs.getServerName();
      }
    }
    throw new AssertionError("no region server other than meta's holds " + t);
  }

  /**
   * Moves every other region of {@code t} from {@code meta}'s server to the other live servers: HBase
   * does not move regions onto a server started after a kill by itself, so after a few kills the
   * table would sit on meta's server alone.
   */
  private static void spreadOver(TableName t, ServerName meta) throws Exception {
    MiniHBaseCluster cluster = MiniHBase.util().getMiniHBaseCluster();
    List<ServerName> others = cluster.getLiveRegionServerThreads().stream().map(x -> x.getRegionServer().getServerName())
        .filter(n -> !n.equals(meta)).toList();
    List<HRegion> onMeta = regions(t).stream().filter(r -> meta.equals(cluster.getRegionServer(
        cluster.getServerWith(r.getRegionInfo().getRegionName())).getServerName())).toList();
    for (int i = 0; i < onMeta.size(); i += 2) {
      MiniHBase.util().getAdmin().move(onMeta.get(i).getRegionInfo().getEncodedNameAsBytes(),
          others.get(i / 2 % others.size()));
    }
    awaitOnline(t);
  }

  private static void awaitOnline(TableName t) throws Exception {
    MiniHBase.util().waitFor(180_000, 200, () -> {
      MiniHBaseCluster cluster = MiniHBase.util().getMiniHBaseCluster();
      List<HRegion> rs = regions(t);
      return rs.size() >= 6 && rs.stream().allMatch(r -> cluster.getServerWith(r.getRegionInfo().getRegionName()) >= 0);
    });
    MiniHBase.util().waitUntilNoRegionsInTransition(180_000);
  }

  @Test
  void regionServersKilledMidLoadLoseNoAcknowledgedRowAndReopenTheSameTrees() throws Exception {
    TableName t = table("iam_cluster_kill", SMALL_TREE, false);
    int kills = Integer.getInteger("iam.cluster.kills", 1);
    Loader loader = new Loader(t);
    try {
      loader.awaitMore(3000);
      for (int k = 0; k < kills; k++) {
        ServerName dead = killOne(t);
        loader.awaitMore(1500); // the load goes on while HBase reassigns the dead server's regions
        awaitOnline(t);
        assertTrue(MiniHBase.util().getMiniHBaseCluster().getLiveRegionServerThreads().stream()
            .noneMatch(x -> x.getRegionServer().getServerName().equals(dead)), "server " + dead + " is gone");
      }
    } finally {
      loader.close();
    }
    awaitOnline(t);
    settle(t);
    Map<String, List<String>> before = trees(t);
    // A settled, flushed table: a reopened store must rebuild exactly its tree from the files' tags.
    killOne(t);
    awaitOnline(t);
    Map<String, List<String>> after = trees(t);
    assertEquals(before, after, "the trees after the regions reopened elsewhere");
    for (HRegion r : regions(t)) {
      EngineProbe.assertSound(r.getStore(FAMILY));
    }
    loader.verify();
  }

  @Test
  void regionsSplitAndMergeWhileTheLoadRuns() throws Exception {
    TableName t = table("iam_cluster_split", SMALL_TREE, true);
    Admin admin = MiniHBase.util().getAdmin();
    Loader loader = new Loader(t);
    int rounds = Integer.getInteger("iam.cluster.splits", 1);
    try {
      loader.awaitMore(3000);
      for (int round = 0; round < rounds; round++) {
        // A region splits in the middle of its keys, then two neighbours (another pair each round) merge.
        byte[] point = Bytes.toBytes(SPLIT_POINTS[round % SPLIT_POINTS.length]);
        HRegion parent = regions(t).stream().filter(r -> r.getRegionInfo().containsRow(point)).findFirst()
            .orElseThrow();
        int before = regions(t).size();
        admin.splitRegionAsync(parent.getRegionInfo().getRegionName(), point).get();
        MiniHBase.util().waitFor(120_000, 200, () -> regions(t).size() == before + 1);
        loader.awaitMore(1500);
        awaitOnline(t);
        adoptReferences(t);
        List<HRegion> sorted = new ArrayList<>(regions(t));
        sorted.sort((a, b) -> Bytes.compareTo(a.getRegionInfo().getStartKey(), b.getRegionInfo().getStartKey()));
        int left = (2 + round) % (sorted.size() - 1);
        admin.mergeRegionsAsync(new byte[][] {sorted.get(left).getRegionInfo().getEncodedNameAsBytes(),
            sorted.get(left + 1).getRegionInfo().getEncodedNameAsBytes()}, false).get();
        MiniHBase.util().waitFor(120_000, 200, () -> regions(t).size() == before);
        loader.awaitMore(1500);
        awaitOnline(t);
        adoptReferences(t);
      }
    } finally {
      loader.close();
    }
    awaitOnline(t);
    settle(t);
    for (HRegion r : regions(t)) {
      EngineProbe.assertSound(r.getStore(FAMILY));
    }
    loader.verify();
  }

  @Test
  void aLiveTableSwitchesToIamsEngineAndBackWhileLoaded() throws Exception {
    TableName t = table("iam_cluster_alter", Map.of(), false);
    Admin admin = MiniHBase.util().getAdmin();
    Loader loader = new Loader(t);
    try {
      loader.awaitMore(2000);
      ColumnFamilyDescriptorBuilder f = ColumnFamilyDescriptorBuilder.newBuilder(
          admin.getDescriptor(t).getColumnFamily(FAMILY));
      SMALL_TREE.forEach(f::setConfiguration);
      admin.modifyColumnFamily(t, f.build());
      awaitOnline(t);
      assertTrue(regions(t).stream().allMatch(r -> r.getStore(FAMILY).getStoreEngine() instanceof IamStoreEngine),
          "every region reopened with IAM's engine");
      loader.awaitMore(2000);
      ColumnFamilyDescriptorBuilder back = ColumnFamilyDescriptorBuilder.newBuilder(
          admin.getDescriptor(t).getColumnFamily(FAMILY));
      SMALL_TREE.keySet().forEach(back::removeConfiguration);
      admin.modifyColumnFamily(t, back.build());
      awaitOnline(t);
      assertTrue(regions(t).stream().noneMatch(r -> r.getStore(FAMILY).getStoreEngine() instanceof IamStoreEngine),
          "every region reopened with HBase's default engine");
      loader.awaitMore(2000);
    } finally {
      loader.close();
    }
    awaitOnline(t);
    loader.verify();
  }
}
