package io.iam.bench.load;

import java.util.Optional;

/**
 * Everything {@code iam load} did on one store: the load, then the {@link Phases} that ran.
 *
 * @param load the load, settled
 * @param overwrite the overwrite phase, if it ran
 * @param read the point-read phase, if it ran
 * @param scan the scan phase, if it ran
 */
public record RunResult(
    LoadResult load, Optional<OverwriteResult> overwrite, Optional<ReadResult> read, Optional<ScanResult> scan) {

  public String tree() {
    return load.tree();
  }

  /** What the store reported after its last write phase settled: the overwrites', else the load's. */
  public LoadMetrics lastMetrics() {
    return overwrite.map(OverwriteResult::metrics).orElse(load.metrics());
  }

  /** Table bytes written over user bytes put, over the whole run (load and overwrites). */
  public double writeAmplification() {
    return lastMetrics().writeAmplification();
  }

  /** Table bytes on disk over live bytes after the last write phase settled. */
  public double spaceAmplification() {
    return LoadResult.spaceAmplification(lastMetrics().diskBytes(), load.liveBytes());
  }

  /** The engine's counters after the last phase that ran. */
  public EngineCounters lastEngine() {
    return scan.map(ScanResult::engine)
        .or(() -> read.map(ReadResult::engine))
        .or(() -> overwrite.map(OverwriteResult::engine))
        .orElse(load.engine());
  }

  /** The name of the last phase that ran: "scans", "reads", "overwrites" or "load". */
  public String lastPhase() {
    return scan.isPresent() ? "scans" : read.isPresent() ? "reads" : overwrite.isPresent() ? "overwrites" : "load";
  }
}
