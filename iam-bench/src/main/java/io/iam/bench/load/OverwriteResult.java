package io.iam.bench.load;

/**
 * The overwrite phase on one store: puts of loaded keys with fresh values, then a settle.
 *
 * @param timed the puts
 * @param bytesPut key plus value bytes of the overwrites
 * @param settleNanos wall time of {@link LoadTarget#settle()} after the puts
 * @param liveBytes key plus value bytes of the live records: the load's, as every overwrite
 *     replaces a loaded record's value with one of the same size
 * @param metrics what the store reported after settling, counted over the whole run (load and
 *     overwrites)
 * @param engine the engine's counters after settling
 */
public record OverwriteResult(
    Timed timed, long bytesPut, long settleNanos, long liveBytes, LoadMetrics metrics, EngineCounters engine) {

  private static final double MIB = 1024.0 * 1024;

  /** Overwritten key plus value bytes per second, in MiB. */
  public double mibPerSecond() {
    return bytesPut / MIB / timed.seconds();
  }

  /** Table bytes on disk over live bytes, after settling. */
  public double spaceAmplification() {
    return LoadResult.spaceAmplification(metrics.diskBytes(), liveBytes);
  }
}
