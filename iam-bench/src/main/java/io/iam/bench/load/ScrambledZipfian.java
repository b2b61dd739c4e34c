package io.iam.bench.load;

import java.util.SplittableRandom;

/**
 * Record numbers {@code 0 .. items - 1} drawn from a Zipfian distribution with constant 0.99 whose
 * popular items are scattered over the range: YCSB's {@code ScrambledZipfianGenerator} (core
 * 0.17.0), the key chooser of its workload C with {@code requestdistribution=zipfian}, but drawing
 * from a seeded {@link SplittableRandom} so that runs repeat.
 *
 * <p>As in YCSB, a Zipfian rank is drawn over {@value #ITEM_COUNT} items with Gray et al.'s method
 * ("Quickly Generating Billion-Record Synthetic Databases", SIGMOD 1994), using the precomputed
 * zeta of that many items ({@value #ZETAN}), so that building a generator costs nothing whatever
 * {@code items} is. The rank is then scrambled into the range by FNV-1a 64: {@code
 * fnvhash64(rank) % items}. Rank 0 is drawn with probability 1 / zeta, about 3.8%, rank 1 half as
 * often, and so on; which record numbers are hot depends only on {@code items}.
 *
 * <p>Not thread-safe: one generator per thread.
 */
final class ScrambledZipfian {

  /** YCSB's Zipfian constant. */
  static final double ZIPFIAN_CONSTANT = 0.99;
  /** Items the ranks are drawn over before scrambling (YCSB's {@code ITEM_COUNT}). */
  static final long ITEM_COUNT = 10_000_000_000L;
  /** Zeta of {@link #ITEM_COUNT} items for {@link #ZIPFIAN_CONSTANT} (YCSB's {@code ZETAN}). */
  static final double ZETAN = 26.46902820178302;

  private static final double THETA = ZIPFIAN_CONSTANT;
  private static final double ALPHA = 1.0 / (1.0 - THETA);
  /** zeta(2, theta) = 1 + 0.5^theta. */
  private static final double ZETA_2 = 1.0 + Math.pow(0.5, THETA);
  /** YCSB draws ranks from 0 to ITEM_COUNT inclusive. */
  private static final long RANKS = ITEM_COUNT + 1;
  private static final double ETA = (1 - Math.pow(2.0 / RANKS, 1 - THETA)) / (1 - ZETA_2 / ZETAN);

  private final long items;
  private final SplittableRandom random;

  /**
   * @param items how many record numbers to choose from, at least 1
   * @param random the source of the draws
   */
  ScrambledZipfian(long items, SplittableRandom random) {
    if (items < 1) {
      throw new IllegalArgumentException("items must be at least 1: " + items);
    }
    this.items = items;
    this.random = random;
  }

  /** The next record number, in {@code [0, items)}. */
  long next() {
    return Math.floorMod(LoadWorkload.fnvhash64(rank(random.nextDouble())), items);
  }

  /**
   * The Zipfian rank for a uniform draw {@code u} in {@code [0, 1)}: 0 is the most popular, then 1,
   * and so on (YCSB's {@code ZipfianGenerator.nextLong}).
   */
  static long rank(double u) {
    double uz = u * ZETAN;
    if (uz < 1.0) {
      return 0;
    }
    if (uz < ZETA_2) {
      return 1;
    }
    return (long) (RANKS * Math.pow(ETA * u - ETA + 1, ALPHA));
  }
}
