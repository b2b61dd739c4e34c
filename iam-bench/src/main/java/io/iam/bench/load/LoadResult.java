package io.iam.bench.load;

/**
 * One load on one store.
 *
 * @param config the store's setup; {@link LoadConfig#tree()} names the store
 * @param records records put
 * @param valueSize bytes per value
 * @param order key order
 * @param seed seed of the values
 * @param writers client threads that put the records at once
 * @param loadNanos wall time of the puts
 * @param settleNanos wall time of {@link LoadTarget#settle()} after the puts
 * @param latency put latency
 * @param metrics what the store reported after settling
 * @param engine the engine's counters after settling ({@link EngineCounters#NONE} if it has none)
 * @param liveBytes key plus value bytes of the records the load leaves ({@link
 *     LoadWorkload#liveBytes()}): every put's, except in a random load, whose repeated keys count once
 */
public record LoadResult(
    LoadConfig config,
    long records,
    int valueSize,
    KeyOrder order,
    long seed,
    int writers,
    long loadNanos,
    long settleNanos,
    Latency latency,
    LoadMetrics metrics,
    EngineCounters engine,
    long liveBytes) {

  private static final double MIB = 1024.0 * 1024;

  public String tree() {
    return config.tree();
  }

  /** Puts per second during the load phase (as YCSB reports a load; settling not included). */
  public double opsPerSecond() {
    return records / seconds(loadNanos);
  }

  /**
   * Puts per second over the load and its settle: what the store sustains once the compaction work
   * the load left behind is counted. A store may leave much of its work until after the last put
   * (RocksDB lets levels exceed their targets until its pending-compaction limits), which the
   * load-phase figure, {@link #opsPerSecond()}, does not see.
   */
  public double settledOpsPerSecond() {
    return records / seconds(loadNanos + settleNanos);
  }

  /** User bytes (keys plus values) per second during the load phase, in MiB. */
  public double mibPerSecond() {
    return metrics.userBytes() / MIB / seconds(loadNanos);
  }

  /** Load plus settle. */
  public long elapsedMillis() {
    return (loadNanos + settleNanos) / 1_000_000;
  }

  /** Space amplification: {@code diskBytes / liveBytes}; 0 if nothing is live. */
  static double spaceAmplification(long diskBytes, long liveBytes) {
    return liveBytes == 0 ? 0 : (double) diskBytes / liveBytes;
  }

  /** Average key length in bytes. */
  public double averageKeyBytes() {
    return (double) (metrics.userBytes() - records * valueSize) / records;
  }

  private static double seconds(long nanos) {
    return Math.max(nanos, 1) / 1e9;
  }
}
