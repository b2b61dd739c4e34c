package io.iam.bench.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.bench.load.LoadConfig;
import io.iam.bench.util.Json;
import io.iam.core.policy.PolicyOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The IAM paper's tests besides YCSB, as {@code --workloads} entries: each runs {@code iam load}
 * with the comparison's records, memtable and cache in a child JVM, and its JSON is read into the
 * figures a YCSB run has ({@code opsPerSecond}, {@code writeAmplification}, {@code diskBytes},
 * {@code levels}, {@code latencyMicros.<operation>}), the load's own object kept under {@code load}.
 */
enum PaperTest {

  /** Keys arrive sorted ({@code --order sequential}): the load's throughput, write amplification, space. */
  SEQLOAD("seqload", "sequential load") {
    @Override
    List<String> phaseArgs(long records) {
      return List.of("--order", "sequential");
    }
  },

  /**
   * The paper's sequential read: after a hashed load, {@value #SCANS} scans of the whole store from
   * its first key ({@code --read-distribution first}); {@code opsPerSecond} counts entries read per
   * second.
   */
  SEQREAD("seqread", "full scans after a load") {
    @Override
    List<String> phaseArgs(long records) {
      return List.of("--scans", Integer.toString(SCANS), "--scan-length", Long.toString(records),
          "--read-distribution", "first");
    }

    @Override
    void figures(JsonNode load, ObjectNode f) {
      writes(load, f);
      f.put("opsPerSecond", load.path("scan").path("entriesPerSecond").asDouble());
      f.set("latencyMicros", Json.object().set("scan", load.path("scan").path("latencyMicros")));
    }
  },

  /**
   * The paper's random load: each put a uniform draw of a record, repeats overwriting ({@code --order
   * random}); the load's throughput, write amplification and space.
   */
  RANDLOAD("randload", "random load") {
    @Override
    List<String> phaseArgs(long records) {
      return List.of("--order", "random");
    }
  },

  /**
   * A hashed load, then as many puts of loaded keys (uniform) with fresh values: the overwrites'
   * throughput, write amplification over both, and the space they leave.
   */
  OVERWRITE("overwrite", "overwrites after a load") {
    @Override
    List<String> phaseArgs(long records) {
      return List.of("--overwrites", Long.toString(records));
    }

    @Override
    void figures(JsonNode load, ObjectNode f) {
      writes(load.path("overwrite"), f);
      f.put("spaceAmplification", load.path("overwrite").path("spaceAmplification").asDouble());
      ObjectNode latency = Json.object();
      latency.set("insert", load.path("latencyMicros"));
      latency.set("update", load.path("overwrite").path("latencyMicros"));
      f.set("latencyMicros", latency);
    }
  };

  /** Full scans of {@link #SEQREAD}. */
  static final int SCANS = 3;

  private final String cliName;
  private final String description;

  PaperTest(String cliName, String description) {
    this.cliName = cliName;
    this.description = description;
  }

  String cliName() {
    return cliName;
  }

  String description() {
    return description;
  }

  /** The test named {@code name}, if it is one. */
  static Optional<PaperTest> named(String name) {
    return Arrays.stream(values()).filter(t -> t.cliName.equals(name.toLowerCase(Locale.ROOT))).findFirst();
  }

  static List<String> names() {
    return Arrays.stream(values()).map(PaperTest::cliName).toList();
  }

  /**
   * {@code load --tree E --records N --memtable … --cache … [-o …] <phases> --json --no-progress}.
   * A store with a merge policy gets {@code --policy} and {@code --k} as its engine options.
   */
  List<String> args(String engine, ComparePlan.Budget b, boolean takesPolicy) {
    List<String> a = new ArrayList<>(List.of("load", "--tree", engine, "--records", Long.toString(b.records()),
        "--memtable", Long.toString(b.memtableBytes()), "--cache", Long.toString(b.cacheBytes())));
    a.addAll(phaseArgs(b.records()));
    if (takesPolicy && b.policy() != null) {
      a.addAll(List.of("-o", LoadConfig.POLICY + "=" + b.policy()));
    }
    if (takesPolicy && b.k() != null) {
      a.addAll(List.of("-o", PolicyOptions.MAX_COMPONENTS.key() + "=" + b.k()));
    }
    b.options().forEach((key, value) -> a.addAll(List.of("-o", key + "=" + value)));
    a.addAll(List.of("--json", "--no-progress"));
    return a;
  }

  /** The figures of a YCSB run, from {@code iam load}'s JSON object, which they keep under {@code load}. */
  ObjectNode figures(JsonNode load) {
    ObjectNode f = Json.object();
    f.put("test", cliName);
    f.put("engine", load.path("tree").asText());
    f.put("records", load.path("records").asLong());
    figures(load, f);
    f.set("load", load);
    return f;
  }

  abstract List<String> phaseArgs(long records);

  /**
   * Fills {@code f} from the {@code iam load} JSON {@code load}. By default a load's own figures: its
   * throughput, write amplification, space and put latency (the loads in another order).
   */
  void figures(JsonNode load, ObjectNode f) {
    writes(load, f);
    f.set("latencyMicros", Json.object().set("insert", load.path("latencyMicros")));
  }

  /** Throughput, write amplification, disk and levels of a write phase's object. */
  private static void writes(JsonNode phase, ObjectNode f) {
    f.put("opsPerSecond", phase.path("opsPerSecond").asDouble());
    f.put("writeAmplification", phase.path("writeAmplification").asDouble());
    f.put("diskBytes", phase.path("diskBytes").asLong());
    f.set("levels", phase.path("levels"));
  }
}
