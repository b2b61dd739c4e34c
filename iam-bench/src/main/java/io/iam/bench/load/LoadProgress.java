package io.iam.bench.load;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** A progress bar over the records of a load, on stderr; silent when disabled or for short loads. */
final class LoadProgress implements AutoCloseable {

  /** Loads of fewer records than this finish too fast for a bar to help. */
  static final long THRESHOLD = 100_000;

  private final ProgressBar bar;

  private LoadProgress(ProgressBar bar) {
    this.bar = bar;
  }

  static LoadProgress over(String task, long records, boolean enabled) {
    if (!enabled || records < THRESHOLD) {
      return new LoadProgress(null);
    }
    return new LoadProgress(new ProgressBarBuilder()
        .setTaskName(task)
        .setInitialMax(records)
        .setStyle(ProgressBarStyle.ASCII)
        .setUnit(" records", 1)
        .setUpdateIntervalMillis(200)
        .showSpeed()
        .build());
  }

  /** {@code done} records are in. */
  void at(long done) {
    if (bar != null) {
      bar.stepTo(done);
    }
  }

  /** The puts are done; the store is finishing background work. */
  void settling() {
    if (bar != null) {
      bar.setExtraMessage(" settling...");
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.setExtraMessage("");
      bar.close();
    }
  }
}
