package io.iam.bench.cli;

import io.iam.bench.util.Progress;
import io.iam.core.option.OptionType;
import io.iam.core.sim.Accounting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@code iam simulate --sweep}: plans the runs, runs them, writes the CSV files and charts. */
final class Sweep {

  static final String SWEEP_CSV = "sweep.csv";
  static final String SERIES_CSV = "series.csv";
  static final String WA_N24000_PNG = "wa-vs-flushes-n24000.png";
  static final String WA_N2000_PNG = "wa-vs-flushes-n2000.png";
  static final String WA_COMPONENTS_PNG = "wa-vs-components.png";

  /** What a sweep produced. */
  record Result(
      List<SweepRunner.Outcome> outcomes, List<Path> files, long horizon, String stream,
      long totalFlushes, long elapsedMillis) {}

  private final long flushSize;
  private final Accounting accounting;
  private final int threads;
  private final long maxFlushes;
  private final boolean progress;

  /** @param maxFlushes caps every run's flush count ({@link Long#MAX_VALUE} for the paper's) */
  Sweep(long flushSize, Accounting accounting, int threads, long maxFlushes, boolean progress) {
    this.flushSize = flushSize;
    this.accounting = accounting;
    this.threads = threads;
    this.maxFlushes = maxFlushes;
    this.progress = progress;
  }

  Result run(Path outDir) throws IOException, InterruptedException {
    long start = System.nanoTime();
    if (Files.exists(outDir) && !Files.isDirectory(outDir)) {
      throw new IOException("--out " + outDir + " exists and is not a directory");
    }
    Files.createDirectories(outDir);
    List<SweepPlan.Run> plan = SweepPlan.runs(maxFlushes);
    long total = plan.stream().mapToLong(SweepPlan.Run::flushes).sum();
    List<SweepRunner.Outcome> outcomes;
    try (Progress bar = Progress.flushes("sweep", total, progress)) {
      outcomes = new SweepRunner(flushSize, accounting, threads).run(plan, bar);
    }
    String stream = "uniform " + OptionType.SIZE.format(flushSize);
    long horizon = SweepPlan.horizon(SweepPlan.LONG_HORIZON, maxFlushes);
    long shortHorizon = SweepPlan.horizon(SweepPlan.SHORT_HORIZON, maxFlushes);
    List<Path> files = List.of(
        SweepCsv.writeSweep(outDir.resolve(SWEEP_CSV), outcomes),
        SweepCsv.writeSeries(outDir.resolve(SERIES_CSV), outcomes),
        SweepCharts.waVsFlushes(outDir.resolve(WA_N24000_PNG), outcomes, horizon, stream),
        SweepCharts.waVsFlushes(outDir.resolve(WA_N2000_PNG), outcomes, shortHorizon, stream),
        SweepCharts.waVsComponents(outDir.resolve(WA_COMPONENTS_PNG), outcomes, horizon, stream));
    long elapsed = (System.nanoTime() - start) / 1_000_000;
    return new Result(outcomes, files, horizon, stream, total, elapsed);
  }
}
