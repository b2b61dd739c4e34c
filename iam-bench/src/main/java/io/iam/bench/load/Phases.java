package io.iam.bench.load;

import java.util.Objects;

/**
 * The optional phases of {@code iam load} after the load has settled, run in this order on the
 * same open store; a count of 0 skips a phase.
 *
 * <ol>
 *   <li>Overwrites: {@code overwrites} puts of loaded keys drawn uniformly, with fresh values of
 *       the load's size, then a settle. The store keeps as many live records as the load put.
 *   <li>Point reads: {@code reads} gets of loaded keys drawn by {@code readDistribution}; each must
 *       find a value.
 *   <li>Scans: {@code scans} range scans of {@code scanLength} entries, each starting at a loaded key
 *       drawn by {@code readDistribution} (as YCSB's workload E draws its scan starts).
 * </ol>
 *
 * @param overwrites puts of loaded keys after the load, 0 or more
 * @param reads point reads, 0 or more
 * @param readDistribution how reads and scan starts choose loaded records
 * @param scans range scans, 0 or more
 * @param scanLength entries each scan reads, at least 1
 */
public record Phases(long overwrites, long reads, KeyDistribution readDistribution, long scans, int scanLength) {

  /** YCSB's workload E scans up to 100 entries. */
  public static final int DEFAULT_SCAN_LENGTH = 100;

  /** Only the load. */
  public static final Phases NONE = new Phases(0, 0, KeyDistribution.ZIPFIAN, 0, DEFAULT_SCAN_LENGTH);

  public Phases {
    Objects.requireNonNull(readDistribution, "readDistribution");
    notNegative("overwrites", overwrites);
    notNegative("reads", reads);
    notNegative("scans", scans);
    if (scanLength < 1) {
      throw new IllegalArgumentException("scanLength must be at least 1: " + scanLength);
    }
  }

  private static void notNegative(String name, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(name + " must not be negative: " + value);
    }
  }
}
