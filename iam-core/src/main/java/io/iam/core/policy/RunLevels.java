package io.iam.core.policy;

/**
 * The level of a sorted run in the classic leveled and tiered LSM models (the Min-Max paper's
 * formulas (1)–(6), Dostoevsky's leveling and tiering), told from the number of flushes the run
 * holds: with size ratio T, level i takes runs of T^(i−1) flushes (tiering) or of T^(i−1) up to
 * T^i − 1 flushes (leveling), so both are level ⌊log_T(flushes)⌋ + 1. Counting flushes instead of
 * bytes keeps the levels exact when updates make merged runs smaller than their inputs.
 */
public final class RunLevels {

  private RunLevels() {}

  /** The level (1 = the first on disk) of a run holding {@code flushes} ≥ 1 flushes, with ratio {@code t} ≥ 2. */
  public static int level(long flushes, int t) {
    if (flushes < 1 || t < 2) {
      throw new IllegalArgumentException("need flushes >= 1 and t >= 2: " + flushes + ", " + t);
    }
    int level = 1;
    long capacity = t; // the first flush count of level + 1
    while (flushes >= capacity) {
      level++;
      if (capacity > Long.MAX_VALUE / t) {
        break; // no larger capacity fits in a long: flushes is on the deepest level
      }
      capacity *= t;
    }
    return level;
  }

  /** T^e, saturating at {@link Long#MAX_VALUE}. */
  public static long power(int t, int e) {
    long x = 1;
    for (int i = 0; i < e; i++) {
      if (x > Long.MAX_VALUE / t) {
        return Long.MAX_VALUE;
      }
      x *= t;
    }
    return x;
  }
}
