package io.iam.bench.asterix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.iam.asterix.policy.IamMergePolicy;
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
import io.iam.core.option.InvalidOptionsException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.impls.AbstractLSMIndex;
import org.apache.hyracks.storage.am.lsm.common.impls.LSMHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * YCSB on the {@code asterixdb} store: one embedded AsterixDB for the whole class (IAM's CC and NC
 * applications, as on a cluster), a fresh dataset per store. Every YCSB operation through {@link
 * StoreDb}; workloads A–G through {@link YcsbRunner} with zero errors and counted write amplification;
 * the policy and k reaching the dataset; bad policies and options refused by name.
 */
class AsterixYcsbTest {

  private static final long MEMTABLE = 256 << 10;
  private static final long CACHE = 1 << 20;

  @TempDir Path tmp;

  /** Holds the JVM's embedded AsterixDB for the whole class, so each store does not restart it. */
  @BeforeAll
  static void startAsterix() throws Exception {
    EmbeddedAsterix.acquire(MEMTABLE, CACHE);
  }

  @AfterAll
  static void stopAsterix() {
    EmbeddedAsterix.release();
  }

  private static Properties properties(Path dir, String... options) {
    Properties p = new Properties();
    p.setProperty(StoreDb.ENGINE, AsterixTarget.NAME);
    p.setProperty(StoreDb.DIR, dir.toString());
    p.setProperty(StoreDb.MEMTABLE, Long.toString(MEMTABLE));
    p.setProperty(StoreDb.CACHE, Long.toString(CACHE));
    for (int i = 0; i < options.length; i += 2) {
      p.setProperty(StoreDb.OPTION_PREFIX + options[i], options[i + 1]);
    }
    return p;
  }

  @Test
  void asterixdbIsAStoreOfIamBench() {
    assertTrue(LoadTargets.find(AsterixTarget.NAME).isPresent(), LoadTargets.names().toString());
  }

  /**
   * Every operation as {@code StoreDbTest} runs it on the built-in stores, with batches of 2 records,
   * so that reads meet records both in the write buffer and in AsterixDB; both ways of sending a batch.
   */
  @ParameterizedTest
  @CsvSource({"file", "statement"})
  void everyOperationRoundTrips(String ingest) throws Exception {
    Path dir = tmp.resolve("ops-" + ingest);
    StoreDbRoundTrip.everyOperationThenClose(properties(dir, "batch", "2", "ingest", ingest), dir);
  }

  /** Keys and values of any bytes come back exactly, and a scan is in unsigned byte order. */
  @Test
  void bytesRoundTripAndScansAreInByteOrder() throws Exception {
    LoadConfig config = LoadConfig.defaults(AsterixTarget.NAME, MEMTABLE, CACHE);
    try (AsterixTarget t = AsterixTarget.open(tmp, config)) {
      byte[][] keys = {{0}, {1, (byte) 0xff}, {(byte) 0x80}, {(byte) 0xff, 0}, "user\"1".getBytes(StandardCharsets.UTF_8)};
      for (int i = 0; i < keys.length; i++) {
        t.put(keys[i], new byte[] {(byte) i, 0, (byte) 0xfe, '"', '\\'});
      }
      t.settle();
      for (int i = 0; i < keys.length; i++) {
        assertTrue(java.util.Arrays.equals(new byte[] {(byte) i, 0, (byte) 0xfe, '"', '\\'}, t.get(keys[i])), "key " + i);
      }
      List<Integer> order = new ArrayList<>();
      assertEquals(5, t.scan(new byte[0], 10, (k, v) -> order.add((int) v[0])));
      assertEquals(List.of(0, 1, 4, 2, 3), order);
      assertNull(t.get(new byte[] {2}));
    }
  }

  /**
   * Workloads A–G through YCSB's CoreWorkload: 2,000 records and 2,000 operations, as the embedded
   * engine's YcsbRunnerTest runs them (G: 200, since each of its scans reads up to 10,000 records;
   * every read, scan and delete here is one SQL++ query of about 10 ms).
   */
  @ParameterizedTest(name = "workload {0}")
  @CsvSource({"a, 2000", "b, 2000", "c, 2000", "d, 2000", "e, 2000", "f, 2000", "g, 200"})
  void workloadCompletesWithoutErrors(String workload, int operations) throws Exception {
    int records = 2_000;
    Path dir = tmp.resolve(workload);
    long t0 = System.nanoTime();
    YcsbResult r = YcsbRunner.run(new YcsbSpec(AsterixTarget.NAME, workload, records, operations, 1, dir, MEMTABLE,
        CACHE, Map.of(LoadConfig.POLICY, "binomial", "max-components", "3")), false);
    PhaseResult run = r.run().orElseThrow();
    System.out.printf("workload %s: load %.0f ops/s, run %.0f ops/s, %d errors, write amplification %.2f,"
        + " %,d bytes flushed, %,d merged, disk %,d; %d ms%n", workload, r.load().opsPerSecond(), run.opsPerSecond(),
        r.errors(), r.metrics().writeAmplification(), r.metrics().flushBytes(), r.metrics().compactionBytesWritten(),
        r.metrics().diskBytes(), (System.nanoTime() - t0) / 1_000_000);
    assertEquals(0, r.errors(), r.firstError());
    assertNull(r.firstError());
    assertEquals(records, r.load().operations());
    assertEquals(operations, run.operations());
    Map<Operation, Long> counts = new EnumMap<>(Operation.class);
    run.byOperation().forEach(o -> counts.put(o.operation(), o.latency().count()));
    assertFalse(counts.isEmpty());
    LoadMetrics m = r.metrics();
    assertTrue(m.flushBytes() > 0, "the settle flushed the memory component: " + m);
    assertTrue(m.writeAmplification() > 0, m.toString());
    assertTrue(m.diskBytes() > 0, m.toString());
    assertTrue(m.engineStats().contains("merge policy binomial {num-components=3}"), m.engineStats());
    assertFalse(SharedStore.isOpen(dir));
  }

  /**
   * A YCSB phase ends with each client's cleanup, which sends what the write buffer still holds:
   * fewer records than a batch would otherwise stay in the client, and the next phase's reads would
   * be answered from the buffer instead of from AsterixDB.
   */
  @Test
  void aClientsCleanupSendsTheRecordsItsBufferHolds() throws Exception {
    Path dir = tmp.resolve("cleanup");
    Properties p = properties(dir);
    SharedStore held = SharedStore.acquire(dir, StoreDb.config(p)); // the store outlives the client, as between phases
    try {
      AsterixTarget target = (AsterixTarget) held.target();
      StoreDb db = new StoreDb();
      db.setProperties(p);
      db.init();
      for (int i = 0; i < 10; i++) {
        assertEquals(Status.OK, db.insert("usertable", "user" + i,
            Map.of("field0", new StringByteIterator("value" + i))));
      }
      assertEquals(0, target.recordsInDataset(), "ten records are less than a batch: still in the buffer");
      db.cleanup();
      assertEquals(10, target.recordsInDataset(), "the cleanup sent them");
    } finally {
      held.release();
    }
  }

  /** Two client threads share one store (the write buffer is shared and locked). */
  @Test
  void twoClientThreads() throws Exception {
    YcsbResult r = YcsbRunner.run(new YcsbSpec(AsterixTarget.NAME, "a", 1_001, 299, 2, tmp.resolve("threads"),
        MEMTABLE, CACHE), false);
    assertEquals(0, r.errors(), r.firstError());
    assertEquals(1_001, r.load().operations());
    assertEquals(299, r.run().orElseThrow().operations());
  }

  /**
   * {@code --policy binomial --k 6} reaches the dataset: AsterixDB's metadata holds it, the index on
   * the NC runs IAM's policy with k = 6, and the engine stats say so.
   */
  @Test
  void policyAndKReachTheDataset() throws Exception {
    LoadConfig config = LoadConfig.defaults(AsterixTarget.NAME, MEMTABLE, CACHE)
        .withEngineOptions(Map.of(LoadConfig.POLICY, "binomial", "max-components", "6"));
    try (AsterixTarget t = AsterixTarget.open(tmp, config)) {
      for (int i = 0; i < 3_000; i++) {
        t.put(("key" + i).getBytes(StandardCharsets.UTF_8), new byte[1000]);
      }
      t.settle();
      JsonNode row = t.policyRow();
      assertEquals("binomial", row.path("CompactionPolicy").asText(), row.toString());
      JsonNode props = row.path("CompactionPolicyProperties");
      assertEquals(1, props.size(), props.toString());
      assertEquals("num-components", props.get(0).path("Name").asText());
      assertEquals("6", props.get(0).path("Value").asText());

      List<ILSMIndex> indexes = EmbeddedAsterix.acquire(MEMTABLE, CACHE).openIndexes(t.dataverse(), t.dataset());
      EmbeddedAsterix.release();
      assertEquals(1, indexes.size());
      LSMHarness harness = (LSMHarness) ((AbstractLSMIndex) indexes.get(0)).getHarness();
      Field f = LSMHarness.class.getDeclaredField("mergePolicy");
      f.setAccessible(true);
      IamMergePolicy policy = assertInstanceOf(IamMergePolicy.class, (ILSMMergePolicy) f.get(harness));
      assertEquals("binomial", policy.kernelPolicy().name());
      assertEquals(6, policy.kernelPolicy().maxComponents());

      LoadMetrics m = t.metrics();
      System.out.println("engine stats:\n" + m.engineStats());
      assertTrue(m.engineStats().contains("merge policy binomial {num-components=6} (Metadata.Dataset)"), m.engineStats());
      assertTrue(m.flushBytes() > 0 && m.writeAmplification() > 0, m.toString());
      assertTrue(indexes.get(0).getDiskComponents().size() <= 6, "settled at most k components");
    }
  }

  /**
   * Against a running cluster ({@code -o url}, here the embedded one's address): two clients share one
   * named dataset, each with its own key range ({@code -o key-prefix}), as in a distributed run: the
   * same keys, kept apart, and scans that stay in their range. The dataset is created once and kept
   * after both close; the components come from the NC's storage stats.
   */
  @Test
  void twoClientsShareADatasetOfACluster() throws Exception {
    EmbeddedAsterix a = EmbeddedAsterix.acquire(MEMTABLE, CACHE);
    try {
      int perClient = 4_000;
      LoadMetrics m;
      try (AsterixTarget first = AsterixTarget.open(tmp, clusterClient(a, "c1-"));
          AsterixTarget second = AsterixTarget.open(tmp, clusterClient(a, "c2-"))) {
        for (int i = 0; i < perClient; i++) {
          byte[] key = String.format("user%05d", i).getBytes(StandardCharsets.UTF_8);
          first.put(key, value(1, i));
          second.put(key, value(2, i));
        }
        first.settle();
        second.settle();
        byte[] last = String.format("user%05d", perClient - 1).getBytes(StandardCharsets.UTF_8);
        assertEquals(1, first.get(last)[0]);
        assertEquals(2, second.get(last)[0]);
        List<Integer> owners = new ArrayList<>();
        assertEquals(1, second.scan(last, 10, (k, v) -> owners.add((int) v[0])), "the scan stays in c2-");
        assertEquals(List.of(2), owners);
        m = first.metrics();
        System.out.println("cluster mode, first client:\n" + m.engineStats());
        assertTrue(first.describePolicy().contains("binomial {num-components=4}"), first.describePolicy());
      }
      assertTrue(m.diskBytes() > 0, m.toString());
      assertTrue(m.bytesWritten() > 0, "the clients' 11 MB filled the memory component: " + m);
      AsterixHttp http = new AsterixHttp(a.apiUrl());
      assertEquals(2 * perClient, http.sql("USE " + AsterixTarget.DEFAULT_DATAVERSE
          + "; SELECT VALUE COUNT(*) FROM Shared;").get(0).asLong(), "kept after close, both clients' records");
      http.sql("USE " + AsterixTarget.DEFAULT_DATAVERSE + "; DROP DATASET Shared;");
    } finally {
      EmbeddedAsterix.release();
    }
  }

  private static LoadConfig clusterClient(EmbeddedAsterix a, String prefix) {
    return LoadConfig.defaults(AsterixTarget.NAME, MEMTABLE, CACHE).withEngineOptions(Map.of(
        AsterixTarget.URL, a.apiUrl(), AsterixTarget.NC_API, a.ncApiUrl(), AsterixTarget.DATASET, "Shared",
        AsterixTarget.KEY_PREFIX, prefix, LoadConfig.POLICY, "binomial", "max-components", "4"));
  }

  private static byte[] value(int client, int i) {
    byte[] v = new byte[1000];
    v[0] = (byte) client;
    v[1] = (byte) i;
    return v;
  }

  /** AsterixDB's own prefix policy takes its options by iam-core's keys too. */
  @Test
  void asterixPrefixPolicy() throws Exception {
    LoadConfig config = LoadConfig.defaults(AsterixTarget.NAME, MEMTABLE, CACHE).withEngineOptions(
        Map.of(LoadConfig.POLICY, "prefix", "max-tolerance-component-count", "4"));
    try (AsterixTarget t = AsterixTarget.open(tmp, config)) {
      JsonNode row = t.policyRow();
      assertEquals("prefix", row.path("CompactionPolicy").asText());
      assertTrue(t.describePolicy().contains("max-tolerance-component-count=4"), t.describePolicy());
    }
  }

  /**
   * {@code -o compression=none} goes in the dataset's WITH clause beside its policy: AsterixDB's
   * metadata then names no page compression, where a dataset without the option has snappy.
   */
  @Test
  void compressionNoneStoresTheDatasetsPagesUncompressed() throws Exception {
    Map<String, String> policy = Map.of(LoadConfig.POLICY, "binomial", "max-components", "4");
    try (AsterixTarget t = AsterixTarget.open(tmp, LoadConfig.defaults(AsterixTarget.NAME, MEMTABLE, CACHE)
        .withEngineOptions(policy))) {
      assertEquals("snappy", t.policyRow().path("BlockLevelStorageCompression").path("DatasetCompressionScheme")
          .asText(), t.policyRow().toString());
    }
    Map<String, String> none = new LinkedHashMap<>(policy);
    none.put(AsterixTarget.COMPRESSION, "none");
    try (AsterixTarget t = AsterixTarget.open(tmp, LoadConfig.defaults(AsterixTarget.NAME, MEMTABLE, CACHE)
        .withEngineOptions(none))) {
      JsonNode row = t.policyRow();
      assertEquals("binomial", row.path("CompactionPolicy").asText(), row.toString());
      assertEquals("none", row.path("BlockLevelStorageCompression").path("DatasetCompressionScheme").asText("none"),
          row.toString());
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      unknown policy       | policy=fastest                      | unknown merge policy 'fastest' (known: binomial, minlatency, bigtable, exploring, iam-constant, size-tiered, iam-stack, leveling, tiering, prefix, concurrent, constant, correlated-prefix, no-merge)
      value out of range   | policy=binomial,max-components=0    | max-components=0 is out of range: allowed 1 to 64
      option not the policy's | policy=binomial,size-ratio=2     | unknown option 'size-ratio' for merge policy 'binomial' (known: max-components)
      option without policy | foo=1                              | options [foo] are merge-policy options, but no policy is given
      bad batch            | batch=0                             | -o batch='0' is out of range: allowed 1 to 100000
      bad dataset name     | dataset=a-b                         | -o dataset='a-b' is not a plain name
      bad key prefix       | key-prefix=a b                      | -o key-prefix='a b' must be 1 to 64 letters
      bad compression      | compression=zip                     | -o compression='zip' is not one of: none, snappy
      bad ingest           | ingest=feed                         | -o ingest='feed' is not one of: file, statement
      file ingest to a cluster | url=http://127.0.0.1:1,ingest=file | -o ingest=file needs the embedded instance
      """)
  void badOptionsAreRefusedByName(String label, String options, String message) {
    Map<String, String> o = new LinkedHashMap<>();
    for (String kv : options.split(",")) {
      String[] p = kv.split("=", 2);
      o.put(p[0].trim(), p[1].trim());
    }
    LoadConfig config = LoadConfig.defaults(AsterixTarget.NAME, MEMTABLE, CACHE).withEngineOptions(o);
    Exception e = assertThrows(RuntimeException.class, () -> AsterixTarget.open(tmp, config).close());
    assertTrue(e.getMessage().contains(message), e.getMessage());
    if (label.contains("policy") || label.contains("range")) {
      assertInstanceOf(InvalidOptionsException.class, e);
    }
    // Through YCSB's DB interface, the same message.
    DBException db = assertThrows(DBException.class, () -> StoreDbRoundTrip.open(properties(tmp.resolve(label.replace(' ', '-')),
        o.entrySet().stream().flatMap(x -> java.util.stream.Stream.of(x.getKey(), x.getValue())).toArray(String[]::new))));
    assertTrue(db.getMessage().contains(message), db.getMessage());
  }
}
