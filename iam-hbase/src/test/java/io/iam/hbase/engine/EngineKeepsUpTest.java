package io.iam.hbase.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.tree.layout.TreeLayout;
import io.iam.hbase.LogCapture;
import io.iam.hbase.MiniHBase;
import io.iam.hbase.StoreProbe;
import io.iam.hbase.metrics.StoreWriteStats;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.CompactSplit;
import org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.MemStoreFlusher;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hundreds of memstore flushes through HBase's own flush path (a memstore that fills is flushed
 * by the region server's {@link MemStoreFlusher}, which delays the flush while a store has "too
 * many store files"), at HBase's default {@code hbase.hstore.blockingStoreFiles} of 16: the IAM
 * store holds far more HFiles than that, and no flush may be delayed for it. Flushes may wait only
 * while level 1 is at its hard limit, at most 2 s in all, and the load must not take much longer
 * than under HBase's default engine.
 */
@ExtendWith(MiniHBase.class)
class EngineKeepsUpTest {

  /** 128 KiB memstores: over 300 flushes for 75 MiB of rows (a flush also takes in what arrives as it starts). */
  private static final long FLUSH_BYTES = 128L << 10;
  private static final int ROWS = 600 * 128;
  private static final int BATCH = 32;
  private static final String DELAYED = "has too many store files";

  private static StoreProbe table(String name, Map<String, String> family) throws Exception {
    ColumnFamilyDescriptorBuilder f = ColumnFamilyDescriptorBuilder.newBuilder(StoreProbe.FAMILY);
    family.forEach(f::setConfiguration);
    TableName t = TableName.valueOf(name);
    MiniHBase.util().getAdmin().createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(f.build())
        .setMemStoreFlushSize(FLUSH_BYTES).setValue("hbase.table.sanity.checks", "false")
        // No splits: HBase would split these small regions at 2 flush sizes.
        .setRegionSplitPolicyClassName(DisabledRegionSplitPolicy.class.getName()).build());
    MiniHBase.util().waitTableAvailable(t);
    return new StoreProbe(t);
  }

  /** Loads {@code rows} rows in batches and returns how long it took, the settle included. */
  private static Duration load(StoreProbe probe, int rows) throws Exception {
    long start = System.nanoTime();
    for (int i = 0; i < rows; i += BATCH) {
      probe.writeNewRows(Math.min(BATCH, rows - i));
    }
    probe.flushAndSettle();
    return Duration.ofNanos(System.nanoTime() - start);
  }

  private static String region(StoreProbe probe) {
    return probe.regions().get(0).getRegionInfo().getEncodedName();
  }

  @Test
  void hundredsOfFlushesAreNeverDelayedByTheStoresFileCount() throws Exception {
    try (LogCapture flusher = LogCapture.of(MemStoreFlusher.class); LogCapture compactions = LogCapture.of(CompactSplit.class)) {
      // Control: HBase's default engine with room for one file delays its flushes, and the capture sees it.
      StoreProbe control = table("keeps_up_control", Map.of("hbase.hstore.blockingStoreFiles", "1"));
      for (int i = 0; i < 40 && flusher.containing(region(control)).isEmpty(); i++) {
        control.writeNewRows(4 * BATCH);
        Thread.sleep(100);
      }
      assertTrue(flusher.containing(region(control)).stream().anyMatch(m -> m.contains(DELAYED)),
          "the control's flushes were delayed: " + flusher.containing(DELAYED));
      MiniHBase.util().deleteTable(control.table());

      StoreProbe hbase = table("keeps_up_default", Map.of());
      Duration defaultTime = load(hbase, ROWS);

      StoreProbe iam = table("keeps_up_iam", Map.of(StoreEngine.STORE_ENGINE_CLASS_KEY, IamStoreEngine.class.getName(),
          EngineSettings.PREFIX + "fanout", "4", EngineSettings.PREFIX + "node-capacity", "1MiB"));
      Duration iamTime = load(iam, ROWS);

      StoreWriteStats.Snapshot written = StoreWriteStats.total(iam.table().getNameAsString(), "f");
      assertTrue(written.memstoreFlushes() >= 300, "memstore flushes: " + written.memstoreFlushes());
      assertTrue(written.maxStoreFiles() > 16, "the IAM store held more HFiles than HBase's blocking count: "
          + written.maxStoreFiles());
      IamStoreFileManager files = (IamStoreFileManager) EngineProbe.engine(iam.store()).getStoreFileManager();
      List<String> delayed = flusher.containing(region(iam));
      System.out.printf("keeps-up: default %s (%d delayed flushes), IAM %s (%d delayed flushes, %d waits for"
          + " level 1, %d holds, %d ms), memstore flushes %d, most HFiles %d%n", defaultTime,
          flusher.containing(region(hbase)).size(), iamTime, delayed.size(), files.flushWaitEpisodes(),
          files.hbaseHoldEpisodes(), files.flushWaitNanos() / 1_000_000, written.memstoreFlushes(),
          written.maxStoreFiles());
      // HBase delays a flush only while the store reports more files than the blocking count, which
      // the engine does only while a level-1 node holds 3 x C_t: never for the file count.
      assertTrue(delayed.isEmpty() || files.hbaseHoldEpisodes() > 0,
          "flushes delayed by HBase with level 1 below 3 x C_t: " + delayed);
      assertTrue(files.flushWaitNanos() <= 2_000_000_000L,
          "the tree held flushes back for " + files.flushWaitNanos() / 1_000_000 + " ms");
      Duration bound = defaultTime.multipliedBy(3).plusSeconds(30);
      assertTrue(iamTime.compareTo(bound) <= 0, "IAM load " + iamTime + " against the default engine's "
          + defaultTime + " (bound " + bound + ")");

      assertEquals(List.of(), compactions.containing("Compaction failed"), "failed tree steps");
      HStore store = iam.store();
      TreeLayout<HStoreFile> layout = EngineProbe.layout(store);
      assertTrue(layout.depth() >= 3, "levels:\n" + layout);
      EngineProbe.assertSound(store);
      iam.verifyAllRows();
      hbase.verifyAllRows();
    }
  }
}
