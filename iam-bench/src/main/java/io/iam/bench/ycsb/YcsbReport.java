package io.iam.bench.ycsb;

import static io.iam.bench.util.Sizes.human;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.bench.load.Latency;
import io.iam.bench.load.LoadMetrics;
import io.iam.bench.util.Json;
import java.io.PrintWriter;
import java.util.Locale;

/** The readable report of {@code iam ycsb}, and its one line of JSON. */
final class YcsbReport {

  private YcsbReport() {}

  static void print(PrintWriter out, YcsbResult r) {
    YcsbSpec s = r.spec();
    out.println(f("ycsb workload %s on %s: %,d records, %,d operations, %d client thread%s", s.workload(),
        s.engine(), s.records(), s.loadOnly() ? 0 : s.operations(), s.threads(), s.threads() == 1 ? "" : "s"));
    out.println(f("  memtable %s, cache %s", human(s.memtableBytes()), human(s.cacheBytes())));
    phase(out, "load", r.load());
    r.run().ifPresent(run -> phase(out, "run", run));
    LoadMetrics m = r.metrics();
    out.println(f("  write amplification  %.2f  (flushes + compactions over %s put in both phases; WAL excluded)",
        m.writeAmplification(), human(m.userBytes())));
    out.println(f("  written              %s by flushes, %s by compactions (the store's own counters)",
        human(m.flushBytes()), human(m.compactionBytesWritten())));
    out.println(f("  disk                 %s in %d files", human(m.diskBytes()), m.files()));
    if (r.firstError() != null) {
      out.println("  first error          " + r.firstError());
    }
  }

  private static void phase(PrintWriter out, String name, PhaseResult p) {
    out.println(f("  %-5s %,d operations in %.2f s: %,.0f ops/s, %,d errors", name, p.operations(), p.nanos() / 1e9,
        p.opsPerSecond(), p.errors()));
    out.println("        operation          count  errors    p50 us    p95 us    p99 us  p99.9 us    max us");
    for (PhaseResult.OperationStats o : p.byOperation()) {
      Latency l = o.latency();
      out.println(f("        %-15s %,9d %7d %9.1f %9.1f %9.1f %9.1f %9.1f", o.operation().json(), l.count(),
          o.errors(), l.p50Micros(), l.p95Micros(), l.p99Micros(), l.p999Micros(), l.maxMicros()));
    }
  }

  /**
   * One JSON object: {@code engine}, {@code workload}, {@code records}, {@code operations}, {@code
   * threads}, {@code opsPerSecond} and {@code latencyMicros.<operation>.<p50|p95|p99|p999|max>} of the
   * transaction phase (of the load for {@code --workload load}), {@code errors}, {@code
   * writeAmplification}, {@code diskBytes}, {@code levels} (each level's files, bytes, bytes written
   * and write amplification), {@code engineStats} (the store's own statistics text, as {@code iam
   * load --json} gives it), and {@code load} / {@code run} objects with each phase's
   * figures, {@code operations} per type holding {@code count}, {@code errors} and {@code
   * latencyMicros}.
   */
  static String json(YcsbResult r) {
    YcsbSpec s = r.spec();
    ObjectNode o = Json.object();
    o.put("engine", s.engine());
    o.put("workload", s.workload());
    o.put("records", s.records());
    o.put("operations", s.loadOnly() ? 0 : s.operations());
    o.put("threads", s.threads());
    o.put("memtableBytes", s.memtableBytes());
    o.put("cacheBytes", s.cacheBytes());
    PhaseResult measured = r.measured();
    o.put("opsPerSecond", measured.opsPerSecond());
    ObjectNode latency = o.putObject("latencyMicros");
    measured.byOperation().forEach(op -> op.latency().putJson(latency.putObject(op.operation().json())));
    o.put("errors", r.errors());
    LoadMetrics m = r.metrics();
    Json.putFinite(o, "writeAmplification", m.writeAmplification());
    o.put("diskBytes", m.diskBytes());
    o.put("userBytes", m.userBytes());
    o.put("flushBytes", m.flushBytes());
    o.put("compactionBytesWritten", m.compactionBytesWritten());
    m.putLevelsJson(o);
    o.put("engineStats", m.engineStats());
    phase(o.putObject("load"), r.load());
    r.run().ifPresent(run -> phase(o.putObject("run"), run));
    if (r.firstError() != null) {
      o.put("firstError", r.firstError());
    }
    return Json.line(o);
  }

  private static void phase(ObjectNode o, PhaseResult p) {
    o.put("operations", p.operations());
    o.put("millis", p.millis());
    o.put("opsPerSecond", p.opsPerSecond());
    o.put("errors", p.errors());
    ObjectNode ops = o.putObject("operationTypes");
    for (PhaseResult.OperationStats op : p.byOperation()) {
      ObjectNode one = ops.putObject(op.operation().json());
      one.put("count", op.latency().count());
      one.put("errors", op.errors());
      op.latency().putJson(one.putObject("latencyMicros"));
    }
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
