package io.iam.bench.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.bench.load.EngineCounters;
import io.iam.bench.load.LoadConfig;
import io.iam.bench.load.LoadMetrics;
import io.iam.bench.load.LoadTargets;
import io.iam.bench.ycsb.Operation;
import io.iam.bench.ycsb.PhaseResult;
import io.iam.bench.ycsb.SharedStore;
import io.iam.bench.ycsb.StoreDb;
import io.iam.bench.ycsb.StoreDbRoundTrip;
import io.iam.bench.ycsb.YcsbResult;
import io.iam.bench.ycsb.YcsbRunner;
import io.iam.bench.ycsb.YcsbSpec;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import site.ycsb.DBException;

/**
 * The {@code hbase} store through YCSB, on one mini cluster for the whole class (this class holds a
 * reference to it, so the stores' own references never stop it in between): every YCSB operation
 * through {@link StoreDb}, on the mini cluster and through a ZooKeeper address as against a real
 * cluster; workloads A–G through {@link YcsbRunner} with real flush and compaction bytes; bad policies
 * and options refused with their names.
 */
class HBaseTargetTest {

  private static final int RECORDS = 2_000;
  private static final int OPERATIONS = 2_000;
  /** A small memstore, so that both phases flush several times and the policies merge. */
  private static final long MEMTABLE = 256 << 10;
  private static final long CACHE = 4 << 20;

  private static Configuration cluster;

  @TempDir Path tmp;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = MiniCluster.acquire(LoadConfig.defaults(HBaseTarget.NAME, MEMTABLE, CACHE));
  }

  @AfterAll
  static void stopCluster() throws Exception {
    MiniCluster.release();
    assertTrue(MiniCluster.running(), "the cluster stays up for the next store");
    MiniCluster.stopIfUnused();
    assertFalse(MiniCluster.running(), "stopped once unused");
  }

  /** The shared round trip's small store, as {@value HBaseTarget#NAME} with these options. */
  private static Properties properties(Path dir, Map<String, String> options) {
    Properties p = StoreDbRoundTrip.properties(HBaseTarget.NAME, dir);
    options.forEach((k, v) -> p.setProperty(StoreDb.OPTION_PREFIX + k, v));
    return p;
  }

  static Stream<Arguments> clusters() {
    return Stream.of(Arguments.of("mini cluster"), Arguments.of("zookeeper address"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("clusters")
  void everyOperationRoundTrips(String how) throws Exception {
    Map<String, String> options = new LinkedHashMap<>(Map.of("policy", "binomial", "max-components", "3"));
    if (how.equals("zookeeper address")) {
      // The client path of a real cluster, against the mini cluster's ZooKeeper.
      options.put(HBaseOptions.ZOOKEEPER, cluster.get(HConstants.ZOOKEEPER_QUORUM) + ":"
          + cluster.get(HConstants.ZOOKEEPER_CLIENT_PORT));
      options.put(HBaseOptions.TABLE, "remote_roundtrip");
    }
    Path dir = tmp.resolve("roundtrip");
    StoreDb db = StoreDbRoundTrip.open(properties(dir, options));
    try {
      StoreDbRoundTrip.everyOperation(db);
    } finally {
      db.cleanup();
    }
    assertFalse(SharedStore.isOpen(dir), "the last cleanup closes the store");
    assertTrue(MiniCluster.running(), "the class's own reference keeps the cluster up");
  }

  /**
   * Each workload on another policy or engine, so that every kind of store runs YCSB once. The load
   * alone makes 6 to 9 flushes of 256 KiB, so every bound k here is below that and each IAM policy
   * must merge.
   */
  static Stream<Arguments> workloads() {
    return Stream.of(
        Arguments.of("a", Map.of("policy", "binomial", "max-components", "6")),
        Arguments.of("b", Map.of("policy", "minlatency", "max-components", "4")),
        Arguments.of("c", Map.of("policy", "constant", "max-components", "3")),
        Arguments.of("d", Map.of("policy", "bigtable", "max-components", "3")),
        Arguments.of("e", Map.of("tree", "iam", "node-capacity", "512KiB", "fanout", "3")),
        Arguments.of("f", Map.of("policy", "size-tiered")),
        Arguments.of("g", Map.of()));
  }

  private static Map<Operation, Long> counts(PhaseResult p) {
    Map<Operation, Long> c = new java.util.EnumMap<>(Operation.class);
    p.byOperation().forEach(o -> c.put(o.operation(), o.latency().count()));
    return c;
  }

  @ParameterizedTest(name = "workload {0} with {1}")
  @MethodSource("workloads")
  void workloadCompletesWithRealWriteAmplification(String workload, Map<String, String> options) throws Exception {
    Path dir = tmp.resolve("ycsb-" + workload);
    int operations = workload.equals("g") ? OPERATIONS / 4 : OPERATIONS;
    YcsbResult r = YcsbRunner.run(
        new YcsbSpec(HBaseTarget.NAME, workload, RECORDS, operations, 2, dir, MEMTABLE, CACHE, options), false);

    assertEquals(0, r.errors(), r.firstError());
    assertNull(r.firstError());
    assertEquals(RECORDS, r.load().operations());
    PhaseResult run = r.run().orElseThrow();
    assertEquals(operations, run.operations());
    long rmw = counts(run).getOrDefault(Operation.READ_MODIFY_WRITE, 0L);
    assertEquals(operations, counts(run).values().stream().mapToLong(Long::longValue).sum() - 2 * rmw);

    LoadMetrics m = r.metrics();
    String stats = m.engineStats();
    assertTrue(m.flushBytes() > 0, "flushes counted: " + stats);
    assertTrue(m.writeAmplification() >= 1, "every byte put was flushed: " + stats);
    if (!options.isEmpty()) {
      // HBase's own policy waits for more files than these runs flush; every one of ours merges.
      assertTrue(m.compactionBytesWritten() > 0, "compactions counted: " + stats);
      assertTrue(m.writeAmplification() > 1, "and some compacted: " + stats);
    }
    assertTrue(m.diskBytes() > 0 && m.files() > 0, stats);
    assertTrue(m.userBytes() >= RECORDS * 1_000L, "user bytes counted by the store: " + m.userBytes());
    // What HBase really runs, read back from the live store.
    if (options.containsKey("policy")) {
      assertTrue(stats.contains("compaction policy IamCompactionPolicy running " + options.get("policy")), stats);
      if (options.containsKey("max-components")) {
        assertTrue(stats.contains("max-components=" + options.get("max-components")), stats);
      }
    } else if (options.containsKey("tree")) {
      assertTrue(stats.contains("store engine IamStoreEngine, compaction policy IamTreePolicy {tree=iam, fanout=3,"
          + " node-capacity=512KiB"), stats);
    } else {
      assertTrue(stats.contains("store engine DefaultStoreEngine, compaction policy ExploringCompactionPolicy"), stats);
    }
    assertFalse(SharedStore.isOpen(dir), "the runner's reference was the last");
  }

  /**
   * The store through {@code LoadTarget} as {@code iam load} drives it, and the same bytes in the
   * region server's JMX, under the names docs/ycsb-hbase.md tells an operator to read on each node.
   */
  @Test
  void theRegionServersJmxCountsTheBytesTheStoreReports() throws Exception {
    LoadConfig config = LoadConfig.defaults(HBaseTarget.NAME, MEMTABLE, CACHE)
        .withEngineOptions(Map.of("policy", "binomial", "max-components", "3"));
    try (HBaseTarget target = HBaseTarget.open(tmp, config)) {
      java.util.Random random = new java.util.Random(7);
      for (int i = 0; i < 3_000; i++) {
        byte[] value = new byte[1_000];
        random.nextBytes(value);
        target.put(String.format("key%05d", i).getBytes(StandardCharsets.UTF_8), value);
      }
      target.settle();
      LoadMetrics m = target.metrics();
      assertEquals(3_000L * 1_008, m.userBytes());
      assertTrue(m.compactionBytesWritten() > 0, m.engineStats());
      List<String> keys = new java.util.ArrayList<>();
      assertEquals(3, target.scan("key00998".getBytes(StandardCharsets.UTF_8), 3,
          (k, v) -> keys.add(new String(k, StandardCharsets.UTF_8))));
      assertEquals(List.of("key00998", "key00999", "key01000"), keys);

      // Hadoop's metrics system capitalises the registry's names: iam.<table>.<family>.* is exported as Iam.*.
      String prefix = "Iam." + target.table().getNameAsString() + ".f.";
      ObjectName bean = new ObjectName("Hadoop:service=HBase,name=RegionServer,"
          + "sub=Coprocessor.Region.CP_io.iam.hbase.metrics.StoreWriteObserver");
      ObjectName server = new ObjectName("Hadoop:service=HBase,name=RegionServer,sub=Server");
      MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
      while (true) {
        Map<String, Object> seen = new java.util.TreeMap<>();
        if (jmx.isRegistered(bean)) {
          for (MBeanAttributeInfo a : jmx.getMBeanInfo(bean).getAttributes()) {
            if (a.getName().startsWith(prefix)) {
              seen.put(a.getName(), jmx.getAttribute(bean, a.getName()));
            }
          }
        }
        Object flushed = seen.get(prefix + "flushedBytes");
        Object compacted = seen.get(prefix + "compactedBytes");
        if (flushed != null && compacted != null && ((Number) flushed).longValue() == m.flushBytes()
            && ((Number) compacted).longValue() == m.compactionBytesWritten()) {
          break;
        }
        assertTrue(System.nanoTime() < deadline, () -> "JMX " + seen + " of " + attributes(jmx, bean)
            + ", the store: " + m.engineStats());
        Thread.sleep(500);
      }
      long serverFlushed = ((Number) jmx.getAttribute(server, "flushedOutputBytes")).longValue();
      long serverCompacted = ((Number) jmx.getAttribute(server, "compactedOutputBytes")).longValue();
      assertTrue(serverFlushed > 0 && serverCompacted > 0, serverFlushed + " " + serverCompacted);
    }
  }

  /**
   * What {@code iam load} prints after each phase: HBase's own counts of held-back writes for every
   * engine, and for IAM's engine the tree's shape as its MBean shows it.
   */
  @Test
  void theReportHasHBasesHeldBackWritesAndTheTreesShape() throws Exception {
    LoadConfig config = LoadConfig.defaults(HBaseTarget.NAME, MEMTABLE, CACHE)
        .withEngineOptions(Map.of("tree", "iam", "node-capacity", "256KiB", "fanout", "3"));
    try (HBaseTarget target = HBaseTarget.open(tmp, config)) {
      io.iam.hbase.engine.StoreTree tree = loadRandomRows(target, 4_000, 11);
      Map<String, Number> p = target.properties();
      assertTrue(tree.getDepth() >= 2, "a load of about 16 node capacities makes a second level: " + tree.getDepth());
      assertEquals(tree.getDepth(), p.get(EngineCounters.DEPTH).intValue(), p.toString());
      assertEquals(tree.getMixedLevel(), p.get(EngineCounters.MIXED_LEVEL).intValue(), p.toString());
      assertEquals(tree.getNodesPerLevel().get(0).longValue(), p.get("level.1.nodes").longValue(), p.toString());
      assertEquals(tree.getHfilesPerLevel().get(1).longValue(), p.get("level.2.sequences").longValue(), p.toString());
      assertEquals(tree.getFlushWaitMillis() * 1000, p.get(EngineCounters.FLUSH_WAIT_MICROS).longValue(), p.toString());
      assertTrue(p.containsKey(EngineCounters.HBASE_UPDATES_BLOCKED_MICROS), "HBase's updatesBlockedTime: " + p);
      long refused = 0;
      for (org.apache.hadoop.hbase.regionserver.HRegion r : MiniCluster.regions(target.table())) {
        refused += r.getBlockedRequestsCount();
      }
      assertEquals(refused, p.get(EngineCounters.HBASE_BLOCKED_REQUESTS).longValue(), "the table's regions' count");
      EngineCounters picked = EngineCounters.of(p);
      assertEquals(tree.getDepth(), picked.levels().size(), picked.toString());
    }
  }

  /**
   * {@code iam hbase-trees} against the cluster's ZooKeeper, as an operator runs it against a real
   * cluster: the region server's info server serves the MBean over {@code /jmx}, and the command
   * prints the table's tree as the MBean holds it.
   */
  @Test
  void hbaseTreesPrintsARunningClustersTreesFromItsJmx() throws Exception {
    LoadConfig config = LoadConfig.defaults(HBaseTarget.NAME, MEMTABLE, CACHE)
        .withEngineOptions(Map.of("tree", "iam", "node-capacity", "256KiB", "fanout", "3", "table", "treesview"));
    try (HBaseTarget target = HBaseTarget.open(tmp, config)) {
      io.iam.hbase.engine.StoreTree tree = loadRandomRows(target, 3_000, 5);
      String table = target.table().getNameAsString();
      assertTrue(tree.getDepth() >= 2, "depth " + tree.getDepth());
      String zk = cluster.get(HConstants.ZOOKEEPER_QUORUM) + ":" + cluster.get(HConstants.ZOOKEEPER_CLIENT_PORT);

      java.io.StringWriter out = new java.io.StringWriter();
      picocli.CommandLine cl = io.iam.bench.cli.IamCommand.newCommandLine();
      cl.setOut(new java.io.PrintWriter(out));
      assertEquals(0, cl.execute("hbase-trees", "--zookeeper", zk, "--table", table), out.toString());
      String text = out.toString();
      System.out.println(text); // docs/hbase-engine.md shows this output
      assertTrue(text.startsWith(tree.getStore() + " on "), text);
      assertTrue(text.contains("tree iam, mixed level m " + tree.getMixedLevel() + ", cap k " + tree.getSequenceCap()
          + ", depth " + tree.getDepth() + ","), text);
      for (int i = 0; i < tree.getDepth(); i++) {
        String level = String.format(java.util.Locale.ROOT, "  L%-4d %6d %7d ", i + 1,
            tree.getNodesPerLevel().get(i), tree.getHfilesPerLevel().get(i));
        assertTrue(text.contains(level), "level " + (i + 1) + " as " + level + " in\n" + text);
      }
      assertFalse(text.contains("not read:"), text);

      java.io.StringWriter json = new java.io.StringWriter();
      cl.setOut(new java.io.PrintWriter(json));
      assertEquals(0, cl.execute("hbase-trees", "--zookeeper", zk, "--table", table, "--json"));
      com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toString());
      assertEquals(1, root.path("stores").size(), json.toString());
      assertEquals(tree.getDepth(), root.path("stores").get(0).path("depth").asInt());
      assertEquals(tree.getHfiles(), root.path("stores").get(0).path("hfiles").asInt());

      java.io.StringWriter err = new java.io.StringWriter();
      cl.setErr(new java.io.PrintWriter(err));
      assertEquals(1, cl.execute("hbase-trees", "--zookeeper", zk, "--table", "no_such_table"));
      assertTrue(err.toString().contains("no store of table 'no_such_table' runs IAM's store engine"), err.toString());
    }
  }

  /** Puts {@code rows} rows of 1,000 random bytes under random keys, settles, and returns the store's tree. */
  private static io.iam.hbase.engine.StoreTree loadRandomRows(HBaseTarget target, int rows, long seed) throws Exception {
    java.util.Random random = new java.util.Random(seed);
    for (int i = 0; i < rows; i++) {
      byte[] value = new byte[1_000];
      random.nextBytes(value);
      target.put(String.format("key%05d", random.nextInt(100_000)).getBytes(StandardCharsets.UTF_8), value);
    }
    target.settle();
    String table = target.table().getNameAsString();
    return io.iam.hbase.engine.IamStores.get().getStores().stream()
        .filter(t -> t.getStore().startsWith(table + "/")).findFirst().orElseThrow();
  }

  private static List<String> attributes(MBeanServer jmx, ObjectName bean) {
    try {
      return java.util.Arrays.stream(jmx.getMBeanInfo(bean).getAttributes()).map(MBeanAttributeInfo::getName).toList();
    } catch (javax.management.JMException e) {
      return List.of(e.toString());
    }
  }

  @Test
  void badPoliciesAndOptionsAreRefusedByName() {
    assertRefused(Map.of("policy", "fastest"), "iam.compaction.policy='fastest'");
    assertRefused(Map.of("policy", "binomial", "max-components", "0"), "iam.compaction.max-components=0");
    assertRefused(Map.of("policy", "binomial", "ratio", "1.5"), "not options of the binomial policy: iam.compaction.ratio");
    assertRefused(Map.of("policy", "binomial", "nonsense", "1"), "unknown property 'iam.compaction.nonsense'");
    assertRefused(Map.of("tree", "iam", "fanout", "1"), "iam.engine.fanout=1");
    assertRefused(Map.of("tree", "leveled"), "iam.engine.tree");
    assertRefused(Map.of("max-components", "6"), "options [max-components] need a policy");
    assertRefused(Map.of("policy", "binomial", "tree", "iam"), "not both");
    assertRefused(Map.of("region-splits", "maybe"), "region-splits='maybe'");
  }

  private void assertRefused(Map<String, String> options, String expected) {
    Path dir = tmp.resolve("refused");
    DBException e = assertThrows(DBException.class, () -> StoreDbRoundTrip.open(properties(dir, options)));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertFalse(SharedStore.isOpen(dir));
  }

  @Test
  void theStoreIsFoundByName() {
    assertTrue(LoadTargets.names().contains(HBaseTarget.NAME), LoadTargets.names().toString());
    assertFalse(LoadTargets.isBuiltIn(HBaseTarget.NAME));
  }
}
