package io.iam.bench.util;

import java.util.function.LongConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar over a number of units (flushes, records), drawn on stderr, never stdout. Runs too
 * short to need one, or with the bar disabled, get a progress that draws nothing. Safe to feed from
 * several threads at once; as a {@link LongConsumer} it takes steps (what {@link
 * io.iam.core.sim.Simulator}'s progress callback reports).
 */
public final class Progress implements LongConsumer, AutoCloseable {

  /** Simulations of fewer flushes than this finish too fast for a bar to help. */
  public static final long FLUSHES_THRESHOLD = 200_000;

  /** Loads of fewer records than this finish too fast for a bar to help. */
  public static final long RECORDS_THRESHOLD = 100_000;

  private final ProgressBar bar;

  private Progress(ProgressBar bar) {
    this.bar = bar;
  }

  /**
   * A bar over {@code total} units, or a silent progress if disabled or {@code total} is below
   * {@code threshold}.
   *
   * @param unit what is counted, with a leading space: {@code " flushes"}
   */
  public static Progress over(String task, long total, String unit, long threshold, boolean enabled) {
    if (!enabled || total < threshold) {
      return new Progress(null);
    }
    return new Progress(new ProgressBarBuilder()
        .setTaskName(task)
        .setInitialMax(total)
        .setStyle(ProgressBarStyle.ASCII)
        .setUnit(unit, 1)
        .setUpdateIntervalMillis(200)
        .showSpeed()
        .build());
  }

  /** A bar over flushes of a simulation, from {@value #FLUSHES_THRESHOLD} flushes on. */
  public static Progress flushes(String task, long total, boolean enabled) {
    return over(task, total, " flushes", FLUSHES_THRESHOLD, enabled);
  }

  /** A bar over records of a load, from {@value #RECORDS_THRESHOLD} records on. */
  public static Progress records(String task, long total, boolean enabled) {
    return over(task, total, " records", RECORDS_THRESHOLD, enabled);
  }

  /** Whether this progress draws nothing. */
  public boolean silent() {
    return bar == null;
  }

  /** {@code steps} more units are done. */
  @Override
  public void accept(long steps) {
    if (bar != null) {
      synchronized (bar) {
        bar.stepBy(steps);
      }
    }
  }

  /** {@code done} units in all are done. */
  public void stepTo(long done) {
    if (bar != null) {
      synchronized (bar) {
        bar.stepTo(done);
      }
    }
  }

  /** A note after the bar, e.g. {@code " settling..."}; empty for none. */
  public void message(String message) {
    if (bar != null) {
      synchronized (bar) {
        bar.setExtraMessage(message);
      }
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      synchronized (bar) {
        bar.setExtraMessage("");
        bar.close();
      }
    }
  }
}
