package io.iam.bench.asterix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.bench.load.LoadConfig;
import io.iam.bench.util.Json;
import io.iam.core.engine.KilledChild;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponentId;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;

/**
 * The child JVM of {@link AsterixCrashRecoveryTest}: an embedded AsterixDB whose files live in a
 * home that outlives it, with one dataset under binomial k = 4 (through {@code iam-asterix}).
 *
 * <ul>
 *   <li>{@code ingest HOME FIRST}: writes batches FIRST, FIRST + 1, … of {@link #BATCH} records
 *       (batch b holds keys b × BATCH to b × BATCH + BATCH − 1), each one UPSERT, acknowledged with
 *       {@link KilledChild#acknowledge} once AsterixDB answered it; every {@link #FLUSH_EVERY}
 *       batches the NC is asked to flush. It runs until it is killed.
 *   <li>{@code verify HOME LAST FLUSHES}: starts on the home's files (AsterixDB replays its log),
 *       reads back every record of batches 0 to LAST, reads the dataset's merge policy from the
 *       metadata, lists the primary index's disk components, then makes FLUSHES more flushes of
 *       new keys (each awaited with its merges) and lists the components after each. It prints one
 *       line, {@code RESULT {json}}, and stops the instance.
 * </ul>
 */
public final class AsterixCrashChild {

  static final int BATCH = 200;
  static final int FLUSH_EVERY = 2;
  static final int VALUE_BYTES = 120;
  static final String DATASET = "crash";
  static final String K = "4";
  /** Keys of the records written after recovery: far above any batch's. */
  static final long AFTER_RECOVERY = 1L << 40;
  private static final long MEMORY = 64L << 20;
  private static final long CACHE = 32L << 20;

  private AsterixCrashChild() {}

  public static void main(String[] args) throws Exception {
    Path home = Path.of(args[1]);
    try (AsterixTarget t = open(home)) {
      if (args[0].equals("ingest")) {
        ingest(t, Long.parseLong(args[2]));
      } else {
        System.out.println("RESULT " + Json.line(verify(t, Long.parseLong(args[2]), Integer.parseInt(args[3]))));
      }
    }
    System.exit(0); // AsterixDB leaves non-daemon threads
  }

  private static AsterixTarget open(Path home) throws IOException {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(AsterixTarget.HOME, home.toString());
    options.put(AsterixTarget.DATASET, DATASET);
    options.put(AsterixTarget.BATCH, Integer.toString(BATCH));
    options.put(LoadConfig.POLICY, "binomial");
    options.put("max-components", K);
    return AsterixTarget.open(home, LoadConfig.defaults(AsterixTarget.NAME, MEMORY, CACHE).withEngineOptions(options));
  }

  /** The key of record {@code n}. */
  static byte[] key(long n) {
    return ByteBuffer.allocate(8).putLong(n).array();
  }

  /** The value record {@code n} holds: its number, repeated. */
  static byte[] value(long n) {
    byte[] v = new byte[VALUE_BYTES];
    for (int i = 0; i < v.length; i++) {
      v[i] = (byte) (n >>> (8 * (i % 8)));
    }
    return v;
  }

  private static int datasetId(AsterixTarget t) throws IOException {
    int id = t.policyRow().path("DatasetId").asInt(-1);
    if (id < 0) {
      throw new IOException("no DatasetId for " + DATASET);
    }
    return id;
  }

  private static void ingest(AsterixTarget t, long first) throws IOException {
    int datasetId = datasetId(t);
    for (long b = first; b < first + 1_000_000; b++) {
      for (long n = b * BATCH; n < (b + 1) * BATCH; n++) {
        t.put(key(n), value(n));
      }
      t.flushBuffer();
      KilledChild.acknowledge(b);
      if (b % FLUSH_EVERY == 0) {
        t.embedded().flush(datasetId);
      }
    }
  }

  private static ObjectNode verify(AsterixTarget t, long last, int flushes) throws IOException, InterruptedException {
    ObjectNode r = Json.object();
    long expected = (last + 1) * BATCH;
    long seen = 0;
    long wrong = 0;
    long[] next = {0};
    while (next[0] < expected) {
      long from = next[0];
      long[] counts = new long[2];
      int n = t.scan(key(from), 5000, (k, v) -> {
        long key = ByteBuffer.wrap(k).getLong();
        if (key < expected) {
          counts[0]++;
          if (key != next[0] || !Arrays.equals(v, value(key))) {
            counts[1]++;
          }
          next[0] = key + 1;
        }
      });
      seen += counts[0];
      wrong += counts[1];
      if (n == 0 || counts[0] == 0) {
        break;
      }
    }
    r.put("expected", expected);
    r.put("seen", seen);
    r.put("wrong", wrong);
    JsonNode row = t.policyRow();
    r.put("policy", row.path("CompactionPolicy").asText());
    ObjectNode props = r.putObject("properties");
    row.path("CompactionPolicyProperties").forEach(p -> props.put(p.path("Name").asText(), p.path("Value").asText()));

    EmbeddedAsterix embedded = t.embedded();
    String node = embedded.nodes().get(0);
    ILSMIndex primary = AsterixHostExperiment.primary(embedded, t, node);
    IoCounter.Counts counts = IoCounter.index(node, primary.getIndexIdentifier());
    // What recovery flushed and merged has been scheduled by now; wait for it to finish.
    Thread.sleep(2000);
    AsterixHostExperiment.awaitFlushAndMerges(counts, (int) counts.flushes.get());
    r.set("recovered", components(primary));
    int datasetId = datasetId(t);
    ArrayNode after = r.putArray("after");
    ArrayNode sizes = r.putArray("flushSizes");
    for (int f = 0; f < flushes; f++) {
      long base = AFTER_RECOVERY + (long) f * BATCH;
      for (long n = base; n < base + BATCH; n++) {
        t.put(key(n), value(n));
      }
      t.flushBuffer();
      int before = (int) counts.flushes.get();
      embedded.flush(datasetId);
      AsterixHostExperiment.awaitFlushAndMerges(counts, before + 1);
      sizes.add(counts.flushSizes.get(counts.flushSizes.size() - 1));
      after.add(components(primary));
    }
    return r;
  }

  /** The index's disk components, oldest first, each as [minId, maxId, bytes]. */
  private static ArrayNode components(ILSMIndex index) throws IOException {
    List<ILSMDiskComponent> oldestFirst = new ArrayList<>(index.getDiskComponents());
    java.util.Collections.reverse(oldestFirst);
    ArrayNode list = Json.object().arrayNode();
    for (ILSMDiskComponent c : oldestFirst) {
      ILSMComponentId id = c.getId();
      list.addArray().add(id.getMinId()).add(id.getMaxId()).add(c.getComponentSize());
    }
    return list;
  }
}
