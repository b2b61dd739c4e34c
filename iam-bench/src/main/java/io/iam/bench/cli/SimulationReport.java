package io.iam.bench.cli;

import io.iam.bench.util.Sizes;
import io.iam.core.sim.SeriesPoint;
import io.iam.core.sim.SimulationResult;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;

/** The readable output of one simulation: a header line, the series table and a summary. */
final class SimulationReport {

  private SimulationReport() {}

  static void print(PrintWriter out, SimulationResult r) {
    out.println(header(r));
    out.println();
    out.printf(Locale.ROOT, "%12s %12s %11s %15s %12s%n",
        "flushes", "write-amp", "components", "avg-components", "merges");
    for (SeriesPoint p : r.series()) {
      out.printf(Locale.ROOT, "%12d %12.4f %11d %15.3f %12d%n",
          p.flushes(), p.writeAmplification(), p.components(), p.averageComponents(), p.merges());
    }
    out.println();
    double seconds = r.elapsedNanos() / 1e9;
    row(out, "write amplification", String.format(Locale.ROOT, "%.4f", r.writeAmplification()));
    row(out, "average components", String.format(Locale.ROOT, "%.3f", r.averageComponents()));
    row(out, "max components", Integer.toString(r.maxComponents()));
    row(out, "merges", Long.toString(r.merges()));
    row(out, "bytes flushed", Sizes.human(r.bytesFlushed()) + " (" + r.bytesFlushed() + " B)");
    row(out, "bytes written", Sizes.human(r.bytesWritten()) + " (" + r.bytesWritten() + " B)");
    row(out, "elapsed", String.format(Locale.ROOT, "%.3f s (%,.0f flushes/s)",
        seconds, seconds > 0 ? r.flushes() / seconds : Double.POSITIVE_INFINITY));
    out.flush();
  }

  /** One line naming everything the result depends on. */
  static String header(SimulationResult r) {
    return "policy " + r.policy() + " " + options(r.options())
        + " | stream " + r.stream()
        + " | accounting " + CliConverters.name(r.accounting())
        + " | " + r.flushes() + " flushes";
  }

  private static String options(Map<String, String> options) {
    StringBuilder sb = new StringBuilder("{");
    options.forEach((k, v) -> sb.append(sb.length() == 1 ? "" : ", ").append(k).append('=').append(v));
    return sb.append('}').toString();
  }

  private static void row(PrintWriter out, String label, String value) {
    out.printf(Locale.ROOT, "%-20s %s%n", label, value);
  }
}
