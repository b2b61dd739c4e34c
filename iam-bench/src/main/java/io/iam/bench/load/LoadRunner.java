package io.iam.bench.load;

import io.iam.bench.util.Progress;
import java.io.IOException;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;

/**
 * Runs a load on one store: opens it, puts every record from one thread timing each put, settles,
 * reads the metrics, closes.
 */
final class LoadRunner {

  /** How often the progress bar is fed. */
  private static final int PROGRESS_EVERY = 1024;

  private LoadRunner() {}

  static LoadResult run(LoadTarget.Factory factory, Path dir, LoadConfig config, LoadWorkload workload,
      boolean progress) throws IOException {
    Histogram nanos = Latency.newNanosHistogram();
    long userBytes = 0;
    long records = workload.records();
    try (LoadTarget target = factory.open(dir, config);
        Progress bar = Progress.records(config.tree(), records, progress)) {
      long start = System.nanoTime();
      for (long n = 0; n < records; n++) {
        byte[] key = workload.key(n);
        byte[] value = workload.nextValue();
        long t0 = System.nanoTime();
        target.put(key, value);
        nanos.recordValue(System.nanoTime() - t0);
        userBytes += key.length + value.length;
        if ((n + 1) % PROGRESS_EVERY == 0) {
          bar.stepTo(n + 1);
        }
      }
      long loaded = System.nanoTime();
      bar.stepTo(records);
      bar.message(" settling...");
      target.settle();
      long settled = System.nanoTime();
      LoadMetrics metrics = target.metrics();
      if (metrics.userBytes() != userBytes) {
        throw new IllegalStateException(config.tree() + " reports " + metrics.userBytes()
            + " user bytes, but the load put " + userBytes);
      }
      return new LoadResult(config, records, workload.valueSize(), workload.order(), workload.seed(),
          loaded - start, settled - loaded, Latency.ofNanos(nanos), metrics);
    }
  }
}
