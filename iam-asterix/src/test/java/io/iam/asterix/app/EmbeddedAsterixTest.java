package io.iam.asterix.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.iam.asterix.policy.AsterixPolicies;
import io.iam.asterix.policy.IamMergePolicy;
import io.iam.asterix.policy.IamMergePolicyFactory;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponent.ComponentState;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponentId;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.impls.AbstractLSMIndex;
import org.apache.hyracks.storage.am.lsm.common.impls.LSMHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * IAM's merge policies in a real, embedded AsterixDB 0.9.8, installed as on a cluster: the NC and
 * CC applications named in {@code cc.conf}. One dataset with {@code binomial}, k = 6, takes a
 * million upserts; the test counts them, watches the primary index's disk components during the
 * load, restarts the cluster and checks that data, metadata and the policy come back. Bad
 * {@code merge-policy} clauses must fail to compile and leave no dataset behind.
 */
class EmbeddedAsterixTest {

  private static final int K = 6;
  private static final int RECORDS = 1_000_000;
  private static final int BATCHES = 10;

  @RegisterExtension
  static final EmbeddedAsterix asterix = new EmbeddedAsterix();

  /** Each of our names maps to its factory class, once, beside AsterixDB's own policies. */
  @Test
  void everyPolicyIsRegisteredAtStartUp() throws Exception {
    assertRegistered();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      value 0            | {"name": "binomial", "parameters": {"num-components": 0}}    | ASX1079: Compilation error: invalid options for binomial policy: num-components=0 is out of range: allowed 1 to 64
      value -3           | {"name": "minlatency", "parameters": {"num-components": -3}} | ASX1057: Expression of type UNARY_EXPRESSION is not supported in constant record
      value "-3"         | {"name": "minlatency", "parameters": {"num-components": "-3"}} | ASX1060: Field 'merge-policy.parameters.num-components' in the with clause must be of type bigint, but found string
      parameter foo      | {"name": "binomial", "parameters": {"foo": 1}}              | ASX1097: Subfield(s) [foo] in 'merge-policy.parameters' unsupported in the with clause
      no parameters      | {"name": "binomial"}                                         | ASX1079: Compilation error: Compaction policy properties are missing.
      parameter missing  | {"name": "exploring", "parameters": {"num-components": 6}}  | ASX1079: Compilation error: Missing compaction policy property: size-ratio
      two bad values     | {"name": "exploring", "parameters": {"num-components": 0, "size-ratio": 1.2, "min-merge-component-count": 1, "max-merge-component-count": 10}} | ASX1079: Compilation error: invalid options for exploring policy: num-components=0 is out of range: allowed 1 to 64; min-merge-component-count=1 is out of range: allowed 2 to 1000
      parameter not ours | {"name": "binomial", "parameters": {"size-ratio": 1.2}}      | ASX1079: Compilation error: invalid merge policy parameters: unknown parameter 'size-ratio' for merge policy 'binomial' (known: num-components)
      unknown policy     | {"name": "fastest", "parameters": {"num-components": 6}}     | ASX1079: Compilation error: Unknown compaction policy: fastest
      """)
  void badMergePolicyFailsToCompileAndLeavesNoDataset(String label, String mergePolicy,
      String message) throws Exception {
    String name = "Bad" + Math.abs(label.hashCode());
    JsonNode response = asterix.sql("USE Iam; CREATE DATASET " + name
        + "(EventType) PRIMARY KEY id WITH {\"merge-policy\": " + mergePolicy + "};");
    assertEquals("fatal", response.path("status").asText(), response.toString());
    String error = response.path("errors").get(0).path("msg").asText();
    System.out.printf("%s: %s%n", label, error);
    assertTrue(error.contains(message), error);
    assertEquals(0, asterix.sqlOk("SELECT VALUE COUNT(*) FROM Metadata.`Dataset` ds "
        + "WHERE ds.DatasetName = '" + name + "';").get(0).asLong(), name + " was persisted");
  }

  @Test
  void binomialKeepsItsBoundThroughAMillionUpsertsAndARestart() throws Exception {
    asterix.sqlOk("USE Iam; CREATE DATASET Events(EventType) PRIMARY KEY id WITH "
        + "{\"merge-policy\": {\"name\": \"binomial\", \"parameters\": {\"num-components\": " + K + "}}};");
    ILSMIndex index = primaryIndex("Events");
    IamMergePolicy policy = iamPolicy(index);
    assertEquals("binomial", policy.kernelPolicy().name());
    assertEquals(K, policy.kernelPolicy().maxComponents());

    AtomicInteger most = new AtomicInteger();
    AtomicInteger samples = new AtomicInteger();
    Thread sampler = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        most.accumulateAndGet(index.getDiskComponents().size(), Math::max);
        samples.incrementAndGet();
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "component-sampler");
    sampler.setDaemon(true);
    sampler.start();
    long t0 = System.nanoTime();
    upsert("Events", 0, RECORDS, BATCHES);
    long loadMillis = (System.nanoTime() - t0) / 1_000_000;
    List<ILSMDiskComponent> settled = settle(index);
    sampler.interrupt();
    sampler.join();

    assertEquals(RECORDS, count("Events"));
    // What an operator sees: the NC's storage stats list the same components. Their ids are file
    // sequence numbers (one less than component ids here) and their sizes count every file of a
    // component (the Bloom filter too), so compare the flushes each component holds.
    JsonNode stats = statsOf("Events");
    System.out.println("storage stats of Events after the load: " + stats);
    List<Long> listed = new ArrayList<>();
    for (JsonNode c : stats.path("components")) {
      String[] range = c.path("id").asText().split("_");
      listed.add(Long.parseLong(range[1]) - Long.parseLong(range[0]) + 1);
    }
    assertEquals(shapes(settled), listed.stream().sorted().toList());
    long flushes = flushes(settled);
    System.out.printf("load: %d upserts in %d batches, %d ms; %d flushes; disk components: most %d,"
        + " settled %d, %d samples; hard bound %d%n", RECORDS, BATCHES, loadMillis, flushes,
        most.get(), settled.size(), samples.get(), policy.hardBound());
    // Without merges the index would hold one component per flush: the load must flush more often
    // than the bound allows, or the bound proves nothing.
    assertTrue(flushes > policy.hardBound() + 1, "flushes " + flushes);
    // Hyracks asks isMergeLagging after each flush and then holds the flushing thread while the
    // index holds more than the hard bound: the flush that crossed it has already landed.
    assertTrue(most.get() <= policy.hardBound() + 1, "most components " + most.get());
    // Once merges have caught up, the kernel's contract: at most k components.
    assertTrue(settled.size() <= K, "settled at " + settled.size());

    long t1 = System.nanoTime();
    asterix.stop(false);
    asterix.start(false);
    long restartMillis = (System.nanoTime() - t1) / 1_000_000;
    assertRegistered();
    assertEquals(RECORDS, count("Events"));
    JsonNode ds = asterix.sqlOk("SELECT VALUE ds FROM Metadata.`Dataset` ds "
        + "WHERE ds.DataverseName = 'Iam' AND ds.DatasetName = 'Events';").get(0);
    assertEquals("binomial", ds.path("CompactionPolicy").asText(), ds.toString());
    JsonNode props = ds.path("CompactionPolicyProperties");
    assertEquals(1, props.size(), props.toString());
    assertEquals("num-components", props.get(0).path("Name").asText());
    assertEquals(String.valueOf(K), props.get(0).path("Value").asText());

    ILSMIndex reopened = primaryIndex("Events");
    IamMergePolicy reloaded = iamPolicy(reopened);
    assertEquals("binomial", reloaded.kernelPolicy().name());
    assertEquals(K, reloaded.kernelPolicy().maxComponents());
    int more = RECORDS / BATCHES;
    upsert("Events", RECORDS, more, 1);
    List<ILSMDiskComponent> after = settle(reopened);
    assertEquals(RECORDS + more, count("Events"));
    assertTrue(after.size() <= K, "settled at " + after.size() + " after the restart");
    System.out.printf("restart: %d ms; after %d more upserts: %d disk components, %d flushes in all%n",
        restartMillis, more, after.size(), flushes(after));
  }

  private void assertRegistered() throws Exception {
    JsonNode rows = asterix.sqlOk("SELECT VALUE cp FROM Metadata.`CompactionPolicy` cp;");
    Map<String, List<String>> classes = new HashMap<>();
    for (JsonNode row : rows) {
      classes.computeIfAbsent(row.path("CompactionPolicy").asText(), n -> new ArrayList<>())
          .add(row.path("Classname").asText());
    }
    for (IamMergePolicyFactory f : AsterixPolicies.all()) {
      assertEquals(List.of(f.getClass().getName()), classes.get(f.getName()), f.getName());
    }
    assertTrue(classes.containsKey("prefix") && classes.containsKey("no-merge"), classes.toString());
  }

  private void upsert(String dataset, long from, long records, int batches) throws Exception {
    long per = records / batches;
    for (int b = 0; b < batches; b++) {
      long lo = from + b * per;
      long hi = b == batches - 1 ? from + records - 1 : lo + per - 1;
      asterix.sqlOk("USE Iam; UPSERT INTO " + dataset + " (FROM range(" + lo + ", " + hi + ") AS i "
          + "SELECT VALUE {'id': i, 'payload': 'iam-record-' || string(i)});");
    }
  }

  private long count(String dataset) throws Exception {
    return asterix.sqlOk("USE Iam; SELECT VALUE COUNT(*) FROM " + dataset + ";").get(0).asLong();
  }

  /** The dataset's primary index on the NC, opened by a query if it is not open. */
  private ILSMIndex primaryIndex(String dataset) throws Exception {
    count(dataset);
    List<ILSMIndex> found = asterix.openIndexes("/" + dataset + "/");
    assertEquals(1, found.size(), () -> "indexes of " + dataset + ": "
        + found.stream().map(ILSMIndex::getIndexIdentifier).toList());
    return found.get(0);
  }

  private static IamMergePolicy iamPolicy(ILSMIndex index) throws ReflectiveOperationException {
    LSMHarness harness = (LSMHarness) ((AbstractLSMIndex) index).getHarness();
    Field f = LSMHarness.class.getDeclaredField("mergePolicy");
    f.setAccessible(true);
    return assertInstanceOf(IamMergePolicy.class, (ILSMMergePolicy) f.get(harness));
  }

  /** Waits (at most a minute) until no component is being written and the list stops changing. */
  private static List<ILSMDiskComponent> settle(ILSMIndex index) throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    List<ILSMDiskComponent> last = List.of();
    int stable = 0;
    while (System.nanoTime() < deadline && stable < 20) {
      List<ILSMDiskComponent> now = List.copyOf(index.getDiskComponents());
      boolean idle = now.stream().allMatch(c -> c.getState() == ComponentState.READABLE_UNWRITABLE);
      stable = idle && now.equals(last) ? stable + 1 : 0;
      last = now;
      Thread.sleep(50);
    }
    assertTrue(stable >= 20, "disk components still changing after a minute");
    return last;
  }

  private JsonNode statsOf(String dataset) throws Exception {
    for (JsonNode index : asterix.storageStats()) {
      if (dataset.equals(index.path("dataset").asText()) && dataset.equals(index.path("index").asText())) {
        return index;
      }
    }
    throw new AssertionError("no storage stats for " + dataset);
  }

  /** The flushes each component holds, sorted. */
  private static List<Long> shapes(List<ILSMDiskComponent> components) throws Exception {
    List<Long> shapes = new ArrayList<>();
    for (ILSMDiskComponent c : components) {
      shapes.add(c.getId().getMaxId() - c.getId().getMinId() + 1);
    }
    return shapes.stream().sorted().toList();
  }

  /** Flushes the components hold, from their id ranges (AsterixDB numbers flushes). */
  private static long flushes(List<ILSMDiskComponent> components) throws Exception {
    long n = 0;
    for (ILSMDiskComponent c : components) {
      ILSMComponentId id = c.getId();
      n += id.getMaxId() - id.getMinId() + 1;
    }
    return n;
  }
}
