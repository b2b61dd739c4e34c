package io.iam.bench.load;

/**
 * The scan phase on one store.
 *
 * @param timed the scans
 * @param length entries each scan asked for
 * @param distribution how the loaded start keys were chosen
 * @param entries entries read over all scans
 * @param shortScans scans that read fewer than {@code length} entries because they reached the last
 *     key
 * @param engine the engine's counters after the scans
 */
public record ScanResult(
    Timed timed, int length, KeyDistribution distribution, long entries, long shortScans, EngineCounters engine) {

  /** Entries read per second. */
  public double entriesPerSecond() {
    return entries / timed.seconds();
  }
}
