package io.iam.bench.load;

import io.iam.bench.util.Progress;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Runs a load on one store: opens it, puts every record from the workload's {@link
 * LoadWorkload#writers()} threads at once (each put timed on its thread), settles, reads the
 * metrics; then runs the {@link Phases} asked for on the same open store, each from one thread;
 * closes.
 *
 * <p>The phases draw their keys from random streams split, in a fixed order, off one seeded with
 * the workload's seed, and overwrites take their values from the workload after the load's: the
 * same seed gives every store the same operations.
 */
final class LoadRunner {

  private LoadRunner() {}

  /** The load alone. */
  static LoadResult run(LoadTarget.Factory factory, Path dir, LoadConfig config, LoadWorkload workload,
      boolean progress) throws IOException {
    return run(factory, dir, config, workload, Phases.NONE, progress).load();
  }

  /**
   * The load, then the phases.
   *
   * @throws Misses.MissingKeyException if a read or a scan did not find a loaded key
   * @throws IllegalStateException if the store counts other user bytes than were put
   * @throws WritersRefusedException if the workload has several writers and the store does not take
   *     {@link LoadTarget#concurrentPuts() concurrent puts}
   */
  static RunResult run(LoadTarget.Factory factory, Path dir, LoadConfig config, LoadWorkload workload,
      Phases phases, boolean progress) throws IOException {
    String tree = config.tree();
    SplittableRandom seeds = new SplittableRandom(workload.seed());
    SplittableRandom overwriteKeys = seeds.split();
    SplittableRandom readKeys = seeds.split();
    SplittableRandom scanKeys = seeds.split();
    try (LoadTarget target = factory.open(dir, config)) {
      if (workload.writers() > 1 && !target.concurrentPuts()) {
        throw new WritersRefusedException(tree, workload.writers());
      }
      LongAdder userBytes = new LongAdder();
      List<LoadWorkload.Values> values = workload.writerValues();
      Timed load;
      long settleNanos;
      EngineCounters loadCounters;
      try (GcPauses gc = GcPauses.start()) {
        try (Progress bar = Progress.records(tree, workload.records(), progress)) {
          load = Timed.run(workload.records(), workload.writers(),
              writer -> n -> put(target, workload.key(n), values.get(writer), userBytes), bar);
          settleNanos = settle(target, bar);
        }
        loadCounters = engine(target).with(EngineCounters.GC_PAUSE_MICROS, gc.micros())
            .with(EngineCounters.GC_COUNT, gc.collections()).with(EngineCounters.GC_LONGEST_MICROS, gc.longestMicros());
      }
      LoadMetrics metrics = checkedMetrics(target, tree, userBytes.sum());
      LoadResult loaded = new LoadResult(config, workload.records(), workload.valueSize(), workload.order(),
          workload.seed(), workload.writers(), load.nanos(), settleNanos, load.latency(), metrics, loadCounters,
          workload.order() == KeyOrder.RANDOM ? workload.liveBytes() : metrics.userBytes());
      Optional<OverwriteResult> overwrite = phases.overwrites() == 0 ? Optional.empty()
          : Optional.of(overwrite(target, tree, workload, phases.overwrites(), overwriteKeys, userBytes,
              loaded.liveBytes(), progress));
      Optional<ReadResult> read = phases.reads() == 0 ? Optional.empty()
          : Optional.of(read(target, tree, workload, phases, readKeys, progress));
      Optional<ScanResult> scan = phases.scans() == 0 ? Optional.empty()
          : Optional.of(scan(target, tree, workload, phases, scanKeys, progress));
      return new RunResult(loaded, overwrite, read, scan);
    }
  }

  /** Puts a key with the next value of {@code values}, counting the bytes put; the put alone is timed. */
  private static Timed.Op put(LoadTarget target, byte[] key, LoadWorkload.Values values, LongAdder userBytes) {
    byte[] value = values.next();
    userBytes.add(key.length + value.length);
    return () -> target.put(key, value);
  }

  /** A load with several writers on a store that takes puts from one thread at a time. */
  static final class WritersRefusedException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    WritersRefusedException(String tree, int writers) {
      super("--writers " + writers + ": the store '" + tree + "' takes puts from one thread at a time; run it"
          + " with --writers 1");
    }
  }

  private static long settle(LoadTarget target, Progress bar) throws IOException {
    bar.message(" settling...");
    long start = System.nanoTime();
    target.settle();
    return System.nanoTime() - start;
  }

  private static OverwriteResult overwrite(LoadTarget target, String tree, LoadWorkload workload, long count,
      SplittableRandom keys, LongAdder userBytes, long liveBytes, boolean progress) throws IOException {
    LongSupplier records = KeyDistribution.UNIFORM.chooser(workload.records(), keys);
    long before = userBytes.sum();
    Timed timed;
    long settleNanos;
    try (Progress bar = Progress.over(tree + " overwrite", count, " puts", Progress.RECORDS_THRESHOLD, progress)) {
      timed = Timed.run(count, n -> put(target, workload.key(records.getAsLong()), workload::nextValue, userBytes),
          bar);
      settleNanos = settle(target, bar);
    }
    LoadMetrics metrics = checkedMetrics(target, tree, userBytes.sum());
    return new OverwriteResult(timed, userBytes.sum() - before, settleNanos, liveBytes, metrics, engine(target));
  }

  private static ReadResult read(LoadTarget target, String tree, LoadWorkload workload, Phases phases,
      SplittableRandom keys, boolean progress) throws IOException {
    Misses misses = new Misses("point reads");
    Timed timed = onLoadedKeys(tree + " read", " reads", phases.reads(), phases, workload, keys, progress, key -> {
      if (target.get(key) == null) {
        misses.miss(key);
      }
    });
    misses.check(tree, timed.ops());
    return new ReadResult(timed, phases.readDistribution(), misses.count(), engine(target));
  }

  private static ScanResult scan(LoadTarget target, String tree, LoadWorkload workload, Phases phases,
      SplittableRandom keys, boolean progress) throws IOException {
    int length = phases.scanLength();
    Misses misses = new Misses("scans");
    long[] entries = {0};
    long[] shortScans = {0};
    Timed timed = onLoadedKeys(tree + " scan", " scans", phases.scans(), phases, workload, keys, progress, start -> {
      int read = target.scan(start, length);
      if (read == 0) {
        misses.miss(start);
      }
      if (read > length) {
        throw new IllegalStateException(tree + " scanned " + read + " entries, asked for " + length);
      }
      entries[0] += read;
      shortScans[0] += read < length ? 1 : 0;
    });
    misses.check(tree, timed.ops());
    return new ScanResult(timed, length, phases.readDistribution(), entries[0], shortScans[0], engine(target));
  }

  /** An operation on one loaded key. */
  @FunctionalInterface
  private interface KeyOp {
    void run(byte[] key) throws IOException;
  }

  /**
   * Runs {@code count} timed operations, each on a loaded key drawn by the phases' read
   * distribution from {@code keys}, with a progress bar of {@code task} counting {@code unit}.
   */
  private static Timed onLoadedKeys(String task, String unit, long count, Phases phases, LoadWorkload workload,
      SplittableRandom keys, boolean progress, KeyOp op) throws IOException {
    KeyDistribution distribution = phases.readDistribution();
    LongSupplier records = distribution.chooser(workload.records(), keys);
    try (Progress bar = Progress.over(task, count, unit, Progress.RECORDS_THRESHOLD, progress)) {
      return Timed.run(count, n -> {
        byte[] key = distribution.fromFirstKey() ? KeyDistribution.BEFORE_ALL : workload.key(records.getAsLong());
        return () -> op.run(key);
      }, bar);
    }
  }

  /** The store's metrics, checked against the user bytes put so far. */
  private static LoadMetrics checkedMetrics(LoadTarget target, String tree, long userBytes) throws IOException {
    LoadMetrics metrics = target.metrics();
    if (metrics.userBytes() != userBytes) {
      throw new IllegalStateException(tree + " reports " + metrics.userBytes() + " user bytes, but "
          + userBytes + " were put");
    }
    return metrics;
  }

  private static EngineCounters engine(LoadTarget target) throws IOException {
    return EngineCounters.of(target.properties());
  }
}
