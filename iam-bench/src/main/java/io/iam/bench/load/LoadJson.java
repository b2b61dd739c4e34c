package io.iam.bench.load;

import java.util.List;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.bench.util.Json;
import java.util.Map;

/**
 * The machine-readable result of {@code iam load}: one JSON object on one line. A {@code --vs} peer
 * has the same fields under {@code vs.<name>}, and {@code ratios} holds ours / peer.
 *
 * <p>The top-level figures are the load's, after it settled; {@code liveBytes} and {@code
 * spaceAmplification} (table bytes on disk ÷ live key plus value bytes) included, and {@code engine},
 * the engine's {@link EngineCounters} (an empty object for a store without any). Each phase that
 * ran adds an object: {@code overwrite} (its puts, then the store after settling, with {@code
 * writeAmplification} over the whole run), {@code read} and {@code scan}; each has its own {@code
 * engine}. {@code settledOpsPerSecond} counts the settle's time with the load's. {@code ratios}
 * holds load throughput ({@code opsPerSecond}, and {@code settledOpsPerSecond}), {@code writeAmplification}
 * over the whole run, {@code spaceAmplification} after the last write phase, and the ops/s of each
 * phase that ran: {@code overwriteOpsPerSecond}, {@code readOpsPerSecond}, {@code scanOpsPerSecond};
 * null where the peer's figure is 0.
 */
final class LoadJson {

  private LoadJson() {}

  /**
   * Ours, then each peer under {@code vs.<name>}; {@code ratios} holds ours / the first peer and
   * {@code ratiosVs.<name>} ours / each peer.
   */
  static String of(RunResult ours, List<RunResult> peers) {
    ObjectNode o = Json.object();
    fields(o, ours);
    for (int i = 0; i < peers.size(); i++) {
      RunResult peer = peers.get(i);
      if (i == 0) {
        fields(o.putObject("vs").putObject(peer.tree()), peer);
        ratios(o.putObject("ratios"), ours, peer);
      } else {
        fields(((ObjectNode) o.get("vs")).putObject(peer.tree()), peer);
      }
      ratios((o.has("ratiosVs") ? (ObjectNode) o.get("ratiosVs") : o.putObject("ratiosVs")).putObject(peer.tree()),
          ours, peer);
    }
    return Json.line(o);
  }

  private static void ratios(ObjectNode out, RunResult ours, RunResult peer) {
    for (LoadReport.Ratio r : LoadReport.Ratio.of(ours, peer)) {
      Json.putFinite(out, r.json(), r.value());
    }
  }

  private static void fields(ObjectNode o, RunResult run) {
    LoadResult r = run.load();
    LoadMetrics m = r.metrics();
    LoadConfig c = r.config();
    o.put("tree", r.tree());
    o.put("records", r.records());
    o.put("valueSize", r.valueSize());
    o.put("order", r.order().cliName());
    o.put("seed", r.seed());
    o.put("writers", r.writers());
    o.put("opsPerSecond", r.opsPerSecond());
    o.put("settledOpsPerSecond", r.settledOpsPerSecond());
    o.put("mibPerSecond", r.mibPerSecond());
    r.latency().putJson(o.putObject("latencyMicros"));
    o.put("p99Micros", r.latency().p99Micros());
    writes(o, m, r.liveBytes());
    o.put("elapsedMillis", r.elapsedMillis());
    o.put("loadMillis", r.loadNanos() / 1_000_000);
    o.put("settleMillis", r.settleNanos() / 1_000_000);
    c.putJson(o.putObject("config"));
    o.put("engineStats", m.engineStats());
    engine(o, r.engine());
    run.overwrite().ifPresent(w -> {
      ObjectNode p = phase(o, "overwrite", w.timed());
      p.put("mibPerSecond", w.mibPerSecond());
      p.put("bytesPut", w.bytesPut());
      p.put("settleMillis", w.settleNanos() / 1_000_000);
      writes(p, w.metrics(), w.liveBytes());
      engine(p, w.engine());
    });
    run.read().ifPresent(rd -> {
      ObjectNode p = phase(o, "read", rd.timed());
      p.put("distribution", rd.distribution().cliName());
      p.put("found", rd.timed().ops() - rd.misses());
      p.put("misses", rd.misses());
      engine(p, rd.engine());
    });
    run.scan().ifPresent(s -> {
      ObjectNode p = phase(o, "scan", s.timed());
      p.put("length", s.length());
      p.put("distribution", s.distribution().cliName());
      p.put("entries", s.entries());
      p.put("entriesPerSecond", s.entriesPerSecond());
      p.put("shortScans", s.shortScans());
      engine(p, s.engine());
    });
  }

  /** A phase's object with its operations, ops/s, wall time and latency. */
  private static ObjectNode phase(ObjectNode o, String name, Timed t) {
    ObjectNode p = o.putObject(name);
    p.put("ops", t.ops());
    p.put("opsPerSecond", t.opsPerSecond());
    p.put("millis", t.millis());
    t.latency().putJson(p.putObject("latencyMicros"));
    return p;
  }

  /** What a write phase left: bytes written and on disk, write and space amplification, levels. */
  private static void writes(ObjectNode o, LoadMetrics m, long liveBytes) {
    o.put("writeAmplification", m.writeAmplification());
    o.put("diskBytes", m.diskBytes());
    o.put("liveBytes", liveBytes);
    o.put("spaceAmplification", LoadResult.spaceAmplification(m.diskBytes(), liveBytes));
    o.put("userBytes", m.userBytes());
    o.put("flushBytes", m.flushBytes());
    o.put("compactionBytesWritten", m.compactionBytesWritten());
    m.putLevelsJson(o);
  }

  /** The engine's counters under {@code engine}, and {@code sequencesPerScan} where it counts scans. */
  private static void engine(ObjectNode o, EngineCounters e) {
    ObjectNode engine = o.putObject("engine");
    for (Map.Entry<String, Number> c : e.values().entrySet()) {
      Number n = c.getValue();
      if (n instanceof Double || n instanceof Float) {
        Json.putFinite(engine, c.getKey(), n.doubleValue());
      } else {
        engine.put(c.getKey(), n.longValue());
      }
    }
    e.sequencesPerScan().ifPresent(s -> Json.putFinite(engine, "sequencesPerScan", s));
    e.uncachedSequencesPerScan().ifPresent(s -> Json.putFinite(engine, "uncachedSequencesPerScan", s));
  }
}
