package io.iam.bench.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.bench.util.Json;
import io.iam.core.sim.SimulationResult;
import java.nio.file.Path;
import java.util.List;

/** The machine-readable results: one JSON object on one line. */
final class ResultJson {

  private ResultJson() {}

  /** One simulation; {@code k} is the policy's max-components, or null if it has none. */
  static String simulation(SimulationResult r) {
    ObjectNode o = Json.object();
    o.put("policy", r.policy());
    String k = r.options().get(PolicyChoice.K_KEY);
    o.put("k", k == null ? null : Integer.valueOf(k));
    ObjectNode options = o.putObject("options");
    r.options().forEach(options::put);
    o.put("stream", r.stream());
    o.put("accounting", CliConverters.name(r.accounting()));
    o.put("flushes", r.flushes());
    o.put("bytesFlushed", r.bytesFlushed());
    o.put("bytesWritten", r.bytesWritten());
    o.put("writeAmplification", r.writeAmplification());
    o.put("averageComponents", r.averageComponents());
    o.put("maxComponents", r.maxComponents());
    o.put("merges", r.merges());
    o.put("elapsedMillis", r.elapsedNanos() / 1_000_000);
    Json.array(o, "series", r.series(), (point, p) -> point
        .put("flushes", p.flushes())
        .put("writeAmplification", p.writeAmplification())
        .put("components", p.components())
        .put("averageComponents", p.averageComponents())
        .put("merges", p.merges()));
    return Json.line(o);
  }

  /** A sweep: where it wrote, how many runs, how long, which files. */
  static String sweep(Path outDir, int runs, long elapsedMillis, List<Path> files) {
    ObjectNode o = Json.object();
    o.put("outDir", outDir.toString());
    o.put("runs", runs);
    o.put("elapsedMillis", elapsedMillis);
    ArrayNode list = o.putArray("files");
    files.forEach(f -> list.add(f.toString()));
    return Json.line(o);
  }
}
