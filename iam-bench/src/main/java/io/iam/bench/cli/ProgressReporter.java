package io.iam.bench.cli;

import java.util.function.LongConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar over a number of flushes, drawn on stderr (never stdout), fed by {@link
 * io.iam.core.sim.Simulator}'s progress callback. Runs too short to need one get a reporter that
 * does nothing. Safe to feed from several simulation threads at once.
 */
final class ProgressReporter implements LongConsumer, AutoCloseable {

  /** Runs of fewer flushes than this finish too fast for a bar to help. */
  static final long THRESHOLD = 200_000;

  private final ProgressBar bar;

  private ProgressReporter(ProgressBar bar) {
    this.bar = bar;
  }

  /** A bar over {@code totalFlushes}, or a silent reporter if disabled or the run is short. */
  static ProgressReporter forFlushes(String task, long totalFlushes, boolean enabled) {
    if (!enabled || totalFlushes < THRESHOLD) {
      return new ProgressReporter(null);
    }
    ProgressBar bar =
        new ProgressBarBuilder()
            .setTaskName(task)
            .setInitialMax(totalFlushes)
            .setStyle(ProgressBarStyle.ASCII)
            .setUnit(" flushes", 1)
            .setUpdateIntervalMillis(200)
            .showSpeed()
            .build();
    return new ProgressReporter(bar);
  }

  @Override
  public void accept(long flushes) {
    if (bar != null) {
      synchronized (bar) {
        bar.stepBy(flushes);
      }
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
    }
  }
}
