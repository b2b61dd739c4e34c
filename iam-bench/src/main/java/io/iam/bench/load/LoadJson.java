package io.iam.bench.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;

/**
 * The machine-readable result of {@code iam load}: one JSON object on one line. A {@code --vs} peer
 * has the same fields under {@code vs.<name>}, and {@code ratios} holds ours / peer.
 */
final class LoadJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private LoadJson() {}

  static String of(LoadResult ours, LoadResult peer) {
    ObjectNode o = MAPPER.createObjectNode();
    fields(o, ours);
    if (peer != null) {
      fields(o.putObject("vs").putObject(peer.tree()), peer);
      LoadReport.Ratios r = LoadReport.Ratios.of(ours, peer);
      ObjectNode ratios = o.putObject("ratios");
      putRatio(ratios, "opsPerSecond", r.opsPerSecond());
      putRatio(ratios, "writeAmplification", r.writeAmplification());
    }
    try {
      return MAPPER.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void fields(ObjectNode o, LoadResult r) {
    LoadMetrics m = r.metrics();
    LoadConfig c = r.config();
    o.put("tree", r.tree());
    o.put("records", r.records());
    o.put("valueSize", r.valueSize());
    o.put("order", r.order().cliName());
    o.put("seed", r.seed());
    o.put("opsPerSecond", r.opsPerSecond());
    o.put("mibPerSecond", r.mibPerSecond());
    o.put("writeAmplification", m.writeAmplification());
    ObjectNode latency = o.putObject("latencyMicros");
    latency.put("p50", r.latency().p50Micros());
    latency.put("p99", r.latency().p99Micros());
    latency.put("p999", r.latency().p999Micros());
    latency.put("max", r.latency().maxMicros());
    o.put("p99Micros", r.latency().p99Micros());
    o.put("diskBytes", m.diskBytes());
    o.put("userBytes", m.userBytes());
    o.put("flushBytes", m.flushBytes());
    o.put("compactionBytesWritten", m.compactionBytesWritten());
    o.put("elapsedMillis", r.elapsedMillis());
    o.put("loadMillis", r.loadNanos() / 1_000_000);
    o.put("settleMillis", r.settleNanos() / 1_000_000);
    ObjectNode config = o.putObject("config");
    config.put("memtableBytes", c.memtableBytes());
    config.put("cacheBytes", c.cacheBytes());
    config.put("bloomBitsPerKey", c.bloomBitsPerKey());
    config.put("targetFileBytes", c.targetFileBytes());
    config.put("levelBaseBytes", c.levelBaseBytes());
    config.put("levelSizeMultiplier", c.levelSizeMultiplier());
    config.put("level0CompactionTrigger", c.level0CompactionTrigger());
    config.put("backgroundThreads", c.backgroundThreads());
    config.put("sync", c.sync());
    ArrayNode levels = o.putArray("levels");
    for (LevelMetrics l : m.levels()) {
      levels.addObject()
          .put("level", l.level())
          .put("files", l.files())
          .put("bytes", l.bytes())
          .put("bytesWritten", l.bytesWritten())
          .put("writeAmplification", l.writeAmplification());
    }
  }

  private static void putRatio(ObjectNode o, String name, double value) {
    if (Double.isNaN(value)) {
      o.putNull(name);
    } else {
      o.put(name, value);
    }
  }
}
