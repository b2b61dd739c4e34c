package io.iam.bench.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/** The readable output of a sweep: write amplification by policy and k, and the files written. */
final class SweepReport {

  private SweepReport() {}

  static void print(PrintWriter out, Sweep.Result r, int threads, String accounting) {
    out.printf(Locale.ROOT, "write amplification at %,d flushes (%s, accounting %s)%n%n",
        r.horizon(), r.stream(), accounting);
    out.printf(Locale.ROOT, "%-12s", "policy");
    for (int k : SweepPlan.KS) {
      out.printf(Locale.ROOT, " %9s", "k=" + k);
    }
    out.println();
    for (String policy : SweepPlan.BOUNDED) {
      out.printf(Locale.ROOT, "%-12s", policy);
      for (int k : SweepPlan.KS) {
        out.printf(Locale.ROOT, " %9s", wa(r, policy, k));
      }
      out.println();
    }
    for (String policy : SweepPlan.REFERENCE) {
      out.printf(Locale.ROOT, "%-12s %9s   (reference: defaults, no k)%n", policy, wa(r, policy, null));
    }
    out.println();
    out.printf(Locale.ROOT, "%d runs, %,d flushes, %d threads, %.1f s%n",
        r.outcomes().size(), r.totalFlushes(), threads, r.elapsedMillis() / 1000.0);
    out.println("wrote:");
    for (Path f : r.files()) {
      out.println("  " + f);
    }
    out.flush();
  }

  private static String wa(Sweep.Result r, String policy, Integer k) {
    for (SweepRunner.Outcome o : r.outcomes()) {
      if (o.run().policy().equals(policy) && Objects.equals(o.run().k(), k)) {
        return String.format(Locale.ROOT, "%.2f", o.result().at(r.horizon()).writeAmplification());
      }
    }
    return "-";
  }
}
