package io.iam.core.sim;

import java.util.SplittableRandom;

/**
 * Draws an item from a growing population with a Zipf distribution concentrated on the most
 * recently added items (YCSB's "latest"): rank 0 is the newest item. Uses the rejection-free
 * method of Gray et al. ("Quickly generating billion-record synthetic databases", SIGMOD 1994),
 * keeping ζ(n, θ) up to date incrementally as items are added, so each draw is O(1).
 */
final class ZipfLatest {

  private final double theta;
  private final double alpha;
  private final double zeta2;
  private long items;
  private double zetaN;
  private long etaItems = -1;
  private double eta;

  ZipfLatest(double theta) {
    if (!(theta > 0 && theta < 1)) {
      throw new IllegalArgumentException("Zipf exponent must be in (0, 1): " + theta);
    }
    this.theta = theta;
    this.alpha = 1.0 / (1.0 - theta);
    this.zeta2 = 1.0 + Math.pow(0.5, theta);
  }

  /** Adds one item to the population; it becomes the newest. */
  void grow() {
    items++;
    zetaN += 1.0 / Math.pow(items, theta);
  }

  long items() {
    return items;
  }

  /** The index (0 = oldest) of an existing item, newest items most likely. Needs items &ge; 1. */
  long draw(SplittableRandom random) {
    long rank = rank(random);
    return items - 1 - rank;
  }

  private long rank(SplittableRandom random) {
    if (items == 1) {
      return 0;
    }
    double u = random.nextDouble();
    double uz = u * zetaN;
    if (uz < 1.0) {
      return 0;
    }
    if (uz < zeta2) {
      return 1;
    }
    if (etaItems != items) { // η depends on n only: recompute once per population size
      eta = (1.0 - Math.pow(2.0 / items, 1.0 - theta)) / (1.0 - zeta2 / zetaN);
      etaItems = items;
    }
    long r = (long) (items * Math.pow(eta * u - eta + 1.0, alpha));
    return Math.min(Math.max(r, 0), items - 1);
  }
}
