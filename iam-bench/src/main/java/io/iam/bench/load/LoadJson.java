package io.iam.bench.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.bench.util.Json;

/**
 * The machine-readable result of {@code iam load}: one JSON object on one line. A {@code --vs} peer
 * has the same fields under {@code vs.<name>}, and {@code ratios} holds ours / peer.
 */
final class LoadJson {

  private LoadJson() {}

  static String of(LoadResult ours, LoadResult peer) {
    ObjectNode o = Json.object();
    fields(o, ours);
    if (peer != null) {
      fields(o.putObject("vs").putObject(peer.tree()), peer);
      LoadReport.Ratios r = LoadReport.Ratios.of(ours, peer);
      ObjectNode ratios = o.putObject("ratios");
      Json.putFinite(ratios, "opsPerSecond", r.opsPerSecond());
      Json.putFinite(ratios, "writeAmplification", r.writeAmplification());
    }
    return Json.line(o);
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
    Json.array(o, "levels", m.levels(), (level, l) -> level
        .put("level", l.level())
        .put("files", l.files())
        .put("bytes", l.bytes())
        .put("bytesWritten", l.bytesWritten())
        .put("writeAmplification", l.writeAmplification()));
    o.put("engineStats", m.engineStats());
  }
}
