package io.iam.hbase.engine;

import io.iam.core.tree.layout.TreeLayout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.tree.layout.NodeTag;
import io.iam.core.tree.layout.Slices;
import io.iam.hbase.MiniHBase;
import io.iam.hbase.StoreProbe;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import java.util.HashMap;
import java.util.HashSet;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.Set;
import java.util.SortedSet;
import java.util.concurrent.atomic.AtomicReference;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The IAM store engine in a real HBase mini cluster: many small flushes build a tree of several
 * levels whose nodes hold several HFiles, every row reads back, and the tree survives a reopen,
 * a region split, a region merge, a memstore flush racing a step over the same nodes, and a region
 * server that dies mid-compaction.
 */
@ExtendWith(MiniHBase.class)
class IamStoreEngineTest {

  /** Each flush writes about 33 KiB; a node is full at 96 KiB and has at most 3 children. */
  private static final int ROWS_PER_FLUSH = 32;
  private static final Map<String, String> SMALL_TREE = Map.of("fanout", "3", "node-capacity", "96KiB");

  private static StoreProbe tableWithTree(String name, Map<String, String> options, String... coprocessors)
      throws Exception {
    TableName table = TableName.valueOf(name);
    EngineProbe.createTable(table, options, Map.of(), coprocessors);
    return new StoreProbe(table);
  }

  private static void flushes(StoreProbe probe, int n) throws Exception {
    for (int i = 0; i < n; i++) {
      probe.writeNewRows(ROWS_PER_FLUSH);
      probe.flushAndSettle();
    }
  }

  @Test
  void manySmallFlushesBuildATreeOfLevelsAndSequences() throws Exception {
    StoreProbe probe = tableWithTree("iam_tree", SMALL_TREE);
    flushes(probe, 24);
    HStore store = probe.store();
    TreeLayout<HStoreFile> layout = EngineProbe.layout(store);
    int levelsWithNodes = 0;
    int maxSequences = 0;
    for (int i = 1; i <= layout.depth(); i++) {
      levelsWithNodes += layout.level(i).isEmpty() ? 0 : 1;
      for (TreeLayout.NodeView<HStoreFile> n : layout.level(i)) {
        maxSequences = Math.max(maxSequences, n.sequences());
      }
    }
    assertTrue(levelsWithNodes >= 2, "levels holding nodes:\n" + layout);
    assertTrue(maxSequences >= 2, "a node holds several sequences:\n" + layout);
    EngineProbe.assertSound(store);
    assertTrue(EngineProbe.engine(store).getCompactionPolicy() instanceof IamTreePolicy);
    assertTrue(((IamTreePolicy) EngineProbe.engine(store).getCompactionPolicy()).plan(layout, List.of()).isEmpty(),
        "the tree is settled");
    probe.verifyAllRows();

    // The tree over JMX, as an operator reads it.
    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    CompositeData[] stores = (CompositeData[]) jmx.getAttribute(new ObjectName(IamStores.NAME), "Stores");
    CompositeData view = Arrays.stream(stores)
        .filter(c -> ((String) c.get("store")).startsWith("iam_tree/")).findFirst().orElseThrow();
    assertEquals("iam", view.get("tree"));
    assertEquals(layout.depth(), view.get("depth"));
    assertEquals(store.getStorefiles().size(), view.get("hfiles"));
    Integer[] nodes = (Integer[]) view.get("nodesPerLevel");
    assertEquals(layout.level(layout.depth()).size(), nodes[layout.depth() - 1]);
    Long[] written = (Long[]) view.get("bytesWrittenPerLevel");
    assertTrue(written.length > layout.depth() && written[1] > 0 && written[layout.depth()] > 0,
        "bytes written per level " + Arrays.toString(written));
    assertEquals(false, view.get("pendingWork"));
    assertEquals(0L, view.get("flushWaitMillis"));
  }

  /**
   * Scans with one open end, which the store cannot tell forward from reversed, return exactly the
   * rows they should in either direction, from rows across a tree of several levels.
   */
  @Test
  void scansWithOneOpenEndReturnTheirRowsInEitherDirection() throws Exception {
    StoreProbe probe = tableWithTree("iam_scan_ends", SMALL_TREE);
    flushes(probe, 24);
    assertTrue(EngineProbe.layout(probe.store()).depth() >= 2, "a tree of several levels");
    NavigableSet<String> keys = probe.modelKeys();
    List<String> all = List.copyOf(keys);
    List<String> starts = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      starts.add(all.get(i * (all.size() - 1) / 7));
    }
    starts.add(all.get(all.size() / 2) + "0"); // between two rows
    try (Table t = MiniHBase.util().getConnection().getTable(probe.table())) {
      for (String k : starts) {
        byte[] row = Bytes.toBytes(k);
        assertEquals(firstTen(keys.tailSet(k, true)), firstTen(t, new Scan().withStartRow(row)), "forward from " + k);
        assertEquals(firstTen(keys.headSet(k, true).descendingSet()),
            firstTen(t, new Scan().withStartRow(row).setReversed(true)), "reversed from " + k);
        assertEquals(firstTen(keys.headSet(k, false)), firstTen(t, new Scan().withStopRow(row)), "forward up to " + k);
        assertEquals(firstTen(keys.tailSet(k, true).descendingSet()),
            firstTen(t, new Scan().withStopRow(row, true).setReversed(true)), "reversed down to " + k);
      }
    }
  }

  private static List<String> firstTen(SortedSet<String> keys) {
    return keys.stream().limit(10).toList();
  }

  /** The first ten row keys {@code scan} returns. */
  private static List<String> firstTen(Table t, Scan scan) throws IOException {
    List<String> out = new ArrayList<>();
    try (ResultScanner results = t.getScanner(scan.setLimit(10))) {
      for (Result r : results) {
        out.add(Bytes.toString(r.getRow()));
      }
    }
    return out;
  }

  @Test
  void mergingTreeKeepsOneSequencePerNodeBelowLevelOne() throws Exception {
    StoreProbe probe = tableWithTree("iam_merge", Map.of("fanout", "3", "node-capacity", "96KiB", "tree", "lsm-merge"));
    flushes(probe, 12);
    HStore store = probe.store();
    TreeLayout<HStoreFile> layout = EngineProbe.layout(store);
    assertTrue(layout.depth() >= 2, "levels:\n" + layout);
    for (int i = 1; i <= layout.depth(); i++) {
      for (TreeLayout.NodeView<HStoreFile> n : layout.level(i)) {
        assertTrue(n.sequences() <= 1, "lsm-merge merges every flush: node " + n.id() + "\n" + layout);
      }
    }
    EngineProbe.assertSound(store);
    probe.verifyAllRows();
  }

  @Test
  void reopenRebuildsTheSameTree() throws Exception {
    StoreProbe probe = tableWithTree("iam_reopen", SMALL_TREE);
    flushes(probe, 10);
    List<String> before = EngineProbe.signature(EngineProbe.layout(probe.store()));
    assertTrue(before.size() >= 2, "nodes before: " + before);
    Admin admin = MiniHBase.util().getAdmin();
    admin.disableTable(probe.table());
    admin.enableTable(probe.table());
    MiniHBase.util().waitTableAvailable(probe.table());
    HStore store = probe.store();
    assertEquals(before, EngineProbe.signature(EngineProbe.layout(store)), "the tree after a reopen");
    probe.verifyAllRows();
    flushes(probe, 2);
    EngineProbe.assertSound(probe.store());
    probe.verifyAllRows();
  }

  @Test
  void splitAndMergeKeepEveryRowAndRebuildTheTree() throws Exception {
    StoreProbe probe = tableWithTree("iam_split", SMALL_TREE);
    flushes(probe, 8);
    Admin admin = MiniHBase.util().getAdmin();
    HRegion parent = probe.store().getHRegion();
    admin.splitRegionAsync(parent.getRegionInfo().getRegionName(), Bytes.toBytes("row-80000000")).get();
    MiniHBase.util().waitFor(60_000, () -> probe.regions().size() == 2);
    MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
    probe.awaitSettled();
    probe.verifyAllRows();
    for (HRegion daughter : probe.regions()) {
      HStore store = daughter.getStore(StoreProbe.FAMILY);
      assertTrue(store.getStorefiles().size() > 0, "daughter " + daughter + " holds files");
      EngineProbe.assertSound(store); // the references were adopted into the daughter's own tree
      store.closeAndArchiveCompactedFiles(); // a region holding references cannot merge
    }

    List<HRegion> daughters = probe.regions();
    admin.mergeRegionsAsync(new byte[][] {daughters.get(0).getRegionInfo().getEncodedNameAsBytes(),
        daughters.get(1).getRegionInfo().getEncodedNameAsBytes()}, false).get();
    MiniHBase.util().waitFor(60_000, () -> probe.regions().size() == 1);
    MiniHBase.util().waitUntilNoRegionsInTransition(60_000);
    probe.awaitSettled();
    probe.verifyAllRows();
    EngineProbe.assertSound(probe.store());
    flushes(probe, 2);
    EngineProbe.assertSound(probe.store());
    probe.verifyAllRows();
  }

  @Test
  void regionServerDyingMidCompactionLosesNothing() throws Exception {
    StoreProbe probe = tableWithTree("iam_abort", SMALL_TREE, CompactionGate.class.getName());
    MiniHBaseCluster cluster = MiniHBase.util().getMiniHBaseCluster();
    // Keep the region away from hbase:meta's server, which the test kills.
    HRegion region = probe.store().getHRegion();
    ServerName metaServer = cluster.getServerHoldingMeta();
    ServerName other = cluster.getRegionServerThreads().stream().map(t -> t.getRegionServer().getServerName())
        .filter(s -> !s.equals(metaServer)).findFirst().orElseThrow();
    MiniHBase.util().getAdmin().move(region.getRegionInfo().getEncodedNameAsBytes(), other);
    MiniHBase.util().waitFor(60_000, () -> probe.regions().size() == 1
        && cluster.getServerWith(probe.regions().get(0).getRegionInfo().getRegionName()) >= 0
        && cluster.getRegionServer(cluster.getServerWith(probe.regions().get(0).getRegionInfo().getRegionName()))
            .getServerName().equals(other));
    flushes(probe, 6);

    CompactionGate.arm();
    int rounds = 0;
    while (!CompactionGate.awaitHeld(0) && rounds++ < 20) {
      probe.writeNewRows(ROWS_PER_FLUSH);
      HRegion r = probe.regions().get(0);
      r.flush(true);
      cluster.getRegionServer(cluster.getServerWith(r.getRegionInfo().getRegionName())).getCompactSplitThread()
          .requestSystemCompaction(r, "test");
      CompactionGate.awaitHeld(5);
    }
    assertTrue(CompactionGate.awaitHeld(0), "a compaction was held");
    probe.writeNewRows(ROWS_PER_FLUSH); // in the memstore and the WAL only
    int victim = cluster.getServerWith(probe.regions().get(0).getRegionInfo().getRegionName());
    HRegionServer dying = cluster.getRegionServer(victim);
    cluster.abortRegionServer(victim);
    CompactionGate.release();
    cluster.waitOnRegionServer(victim);
    cluster.startRegionServer();
    MiniHBase.util().waitFor(120_000, () -> {
      List<HRegion> rs = probe.regions();
      return rs.size() == 1 && cluster.getServerWith(rs.get(0).getRegionInfo().getRegionName()) >= 0;
    });
    MiniHBase.util().waitUntilNoRegionsInTransition(120_000);
    HRegion reopened = probe.regions().get(0);
    assertNotEquals(dying.getServerName(),
        cluster.getRegionServer(cluster.getServerWith(reopened.getRegionInfo().getRegionName())).getServerName());
    probe.verifyAllRows();
    flushes(probe, 2);
    EngineProbe.assertSound(probe.store());
    probe.verifyAllRows();
  }

  @Test
  void aMemstoreFlushRacingATreeStepOverTheSameNodesLosesNothing() throws Exception {
    StoreProbe probe = tableWithTree("iam_race", SMALL_TREE, CompactionGate.class.getName());
    flushes(probe, 6);
    // Hold the next step that rewrites a level-1 node, after its first batch of cells.
    AtomicReference<Set<Long>> stepNodes = new AtomicReference<>();
    CompactionGate.pause(request -> {
      Set<Long> level1 = nodesRead(request, level -> level == 1);
      if (level1.isEmpty()) {
        return false;
      }
      stepNodes.set(level1);
      return true;
    });
    HRegion region = probe.regions().get(0);
    var compactions = compactions(region);
    assertTrue(flushUntilHeld(probe, 300), "a step over level 1 was held");

    // The racing flush: rows all over the key range, routed into level 1 as it was before the step.
    Set<String> before = Set.copyOf(StoreProbe.fileNames(probe.store()));
    probe.writeNewRows(ROWS_PER_FLUSH);
    region.flush(true);
    Set<Long> flushedInto = new HashSet<>();
    for (HStoreFile f : probe.store().getStorefiles()) {
      if (!before.contains(f.getPath().getName())) {
        NodeTag.read(f::getMetadataValue).ifPresent(t -> flushedInto.add(t.node()));
        Slices slices = Slices.decode(f.getMetadataValue(Slices.KEY));
        for (int i = 0; slices != null && i < slices.nodes().length; i++) {
          if (slices.bytes()[i] > 0) {
            flushedInto.add(slices.nodes()[i]); // a shared flush file holds rows of these level-1 nodes
          }
        }
      }
    }
    flushedInto.retainAll(stepNodes.get());
    assertFalse(flushedInto.isEmpty(), "the flush wrote a node the held step rewrites: step " + stepNodes.get());

    CompactionGate.release();
    probe.awaitSettled();
    probe.verifyAllRows();
    compactions.requestSystemCompaction(region, "test"); // adopt what the race left outside the tree
    probe.awaitSettled();
    EngineProbe.assertSound(probe.store());
    probe.verifyAllRows();
    flushes(probe, 2);
    EngineProbe.assertSound(probe.store());
    probe.verifyAllRows();
  }

  /**
   * A deep step is held in HBase's large pool; level-1 steps run beside it, unless {@code
   * max-running-steps=1} keeps every other step waiting for it.
   */
  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void levelOneStepsRunBesideADeepStepThatIsHeldUnlessOneAtATime(int maxRunningSteps) throws Exception {
    Map<String, String> options = new HashMap<>(SMALL_TREE);
    options.put("max-running-steps", Integer.toString(maxRunningSteps));
    StoreProbe probe = tableWithTree("iam_beside_" + maxRunningSteps, options, CompactionGate.class.getName());
    flushes(probe, 30);
    // Hold the next step that reads below level 2 only and is large enough for HBase's large pool
    // (level 1 empties into all of level 2 at once, so it waits for a step that writes level 2).
    long large = IamTreePolicy.LARGE_STEP_NODES * 96 * 1024;
    AtomicReference<Set<Long>> heldNodes = new AtomicReference<>();
    CompactionGate.pause(request -> {
      if (!nodesRead(request, level -> level <= 2).isEmpty() || request.getSize() <= large) {
        return false;
      }
      heldNodes.set(nodesRead(request, level -> true));
      return true;
    });
    HRegion region = probe.regions().get(0);
    var compactions = compactions(region);
    assertTrue(flushUntilHeld(probe, 300), "a deep step was held");

    // While it is held, memstore flushes fill level 1 and level-1 steps must run beside it.
    Set<String> levelOneAtHold = levelOneFiles(probe.store());
    boolean ranBeside = false;
    for (int tries = 0; tries < (maxRunningSteps == 1 ? 15 : 40) && !ranBeside; tries++) {
      probe.writeNewRows(ROWS_PER_FLUSH);
      region.flush(true);
      compactions.requestSystemCompaction(region, "test");
      Thread.sleep(200);
      Set<String> now = Set.copyOf(StoreProbe.fileNames(probe.store()));
      ranBeside = levelOneAtHold.stream().anyMatch(f -> !now.contains(f));
    }
    if (maxRunningSteps == 1) {
      assertFalse(ranBeside, "no step replaced level-1 files while the deep step over " + heldNodes.get() + " was held");
    } else {
      assertTrue(ranBeside, "a step replaced level-1 files while the deep step over " + heldNodes.get() + " was held");
    }

    CompactionGate.release();
    probe.awaitSettled();
    EngineProbe.assertSound(probe.store());
    probe.verifyAllRows();
  }

  /** The nodes of the files a compaction reads whose level passes {@code level}. */
  private static Set<Long> nodesRead(org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest request,
      java.util.function.IntPredicate level) {
    Set<Long> nodes = new HashSet<>();
    for (var f : request.getFiles()) {
      NodeTag.read(((HStoreFile) f)::getMetadataValue).filter(t -> level.test(t.level()))
          .ifPresent(t -> nodes.add(t.node()));
    }
    return nodes;
  }

  private static org.apache.hadoop.hbase.regionserver.CompactSplit compactions(HRegion region) {
    MiniHBaseCluster cluster = MiniHBase.util().getMiniHBaseCluster();
    return cluster.getRegionServer(cluster.getServerWith(region.getRegionInfo().getRegionName())).getCompactSplitThread();
  }

  /** Flushes rows and asks for compactions until {@link CompactionGate} holds one, at most {@code rounds} times. */
  private static boolean flushUntilHeld(StoreProbe probe, int rounds) throws Exception {
    HRegion region = probe.regions().get(0);
    for (int round = 0; round < rounds && !CompactionGate.awaitHeld(0); round++) {
      probe.writeNewRows(ROWS_PER_FLUSH);
      region.flush(true);
      compactions(region).requestSystemCompaction(region, "test");
      Thread.sleep(100);
    }
    return CompactionGate.awaitHeld(0);
  }

  private static Set<String> levelOneFiles(HStore store) {
    Set<String> names = new HashSet<>();
    for (HStoreFile f : store.getStorefiles()) {
      if (IamStoreFileManager.levelOf(f) == 1) {
        names.add(f.getPath().getName());
      }
    }
    return names;
  }

  @Test
  void badEngineSettingsAreRefusedOrFallBackToTheDefaults() throws Exception {
    // Through the master: refused at create, naming the property.
    IOException refused = assertThrows(IOException.class,
        () -> tableWithTree("iam_refused", Map.of("fanout", "1")));
    assertTrue(refused.getMessage().contains("iam.engine.fanout=1 is out of range"), refused.getMessage());

    // A bad value the master cannot see (a region server's own hbase-site.xml) does not fail the
    // region: the store logs it and runs with the defaults.
    var servers = MiniHBase.util().getMiniHBaseCluster().getLiveRegionServerThreads();
    servers.forEach(t -> t.getRegionServer().getConfiguration().set("iam.engine.fanout", "1"));
    try {
      StoreProbe probe = tableWithTree("iam_bad", Map.of());
      IamTreePolicy policy = (IamTreePolicy) EngineProbe.engine(probe.store()).getCompactionPolicy();
      assertEquals(EngineSettings.defaults().asStrings(), policy.settings().asStrings());
      probe.writeNewRows(ROWS_PER_FLUSH);
      probe.flushAndSettle();
      probe.verifyAllRows();
    } finally {
      servers.forEach(t -> t.getRegionServer().getConfiguration().unset("iam.engine.fanout"));
    }
  }
}
