package io.iam.bench.cli;

import io.iam.core.sim.SeriesPoint;
import io.iam.core.sim.SimulationResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes a sweep's {@code sweep.csv} (checkpoints) and {@code series.csv} (curves). */
final class SweepCsv {

  static final String SWEEP_HEADER =
      "policy,k,flushes,writeAmplification,averageComponents,maxComponents,merges,bytesWritten";
  static final String SERIES_HEADER =
      "policy,k,flushes,writeAmplification,components,averageComponents,merges";

  private SweepCsv() {}

  /**
   * One row per run per checkpoint; every value is exact for the first {@code flushes} flushes of
   * the run.
   */
  static Path writeSweep(Path file, List<SweepRunner.Outcome> outcomes) throws IOException {
    try (PrintWriter out = open(file)) {
      out.println(SWEEP_HEADER);
      for (SweepRunner.Outcome o : outcomes) {
        SimulationResult r = o.result();
        for (long c : SweepPlan.checkpoints(r.flushes())) {
          SeriesPoint p = r.at(c);
          out.println(String.join(",",
              o.run().policy(), k(o), Long.toString(c), Double.toString(p.writeAmplification()),
              Double.toString(p.averageComponents()), Integer.toString(p.maxComponents()),
              Long.toString(p.merges()), Long.toString(p.bytesWritten())));
        }
      }
      checkWritten(out, file);
    }
    return file;
  }

  /** Every series point up to {@link SweepPlan#LONG_HORIZON} flushes of every run. */
  static Path writeSeries(Path file, List<SweepRunner.Outcome> outcomes) throws IOException {
    try (PrintWriter out = open(file)) {
      out.println(SERIES_HEADER);
      for (SweepRunner.Outcome o : outcomes) {
        for (SeriesPoint p : o.result().series()) {
          if (p.flushes() > SweepPlan.LONG_HORIZON) {
            break;
          }
          out.println(String.join(",",
              o.run().policy(), k(o), Long.toString(p.flushes()),
              Double.toString(p.writeAmplification()), Integer.toString(p.components()),
              Double.toString(p.averageComponents()), Long.toString(p.merges())));
        }
      }
      checkWritten(out, file);
    }
    return file;
  }

  private static String k(SweepRunner.Outcome o) {
    return o.run().k() == null ? "" : o.run().k().toString();
  }

  /** {@link PrintWriter} keeps I/O errors to itself; ask for them. */
  private static void checkWritten(PrintWriter out, Path file) throws IOException {
    if (out.checkError()) {
      throw new IOException("could not write " + file);
    }
  }

  private static PrintWriter open(Path file) throws IOException {
    Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    return new PrintWriter(w);
  }
}
