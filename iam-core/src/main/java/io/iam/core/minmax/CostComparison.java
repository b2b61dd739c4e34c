package io.iam.core.minmax;

import io.iam.core.cost.LsmCosts;
import io.iam.core.cost.LsmMergeSimulator;

/**
 * What Min-Max, a leveled LSM and a tiered LSM cost on the same key stream (the paper's Table 1):
 * Min-Max through {@link MinMaxTree} (every key a put; the cache drained at the end), the LSMs
 * through {@link LsmMergeSimulator}. Pure.
 *
 * <p>The LSMs flush M = ⌊N/B⌋ buffers and keep every tuple (duplicates included, as the paper
 * does); Min-Max keeps one version per key while it is cached, so on a stream that rewrites cached
 * keys it writes fewer entries.
 */
public record CostComparison(LsmCosts minMax, LsmCosts leveled, LsmCosts tiered) {

  /**
   * Runs all three on {@code keys} with buffer/cache {@code b}, window {@code w}, ratio {@code t}
   * and pages of {@code p} entries.
   */
  public static CostComparison of(long[] keys, int b, int w, int t, int p) {
    MinMaxTree minMax = new MinMaxTree(b, w);
    LsmMergeSimulator leveled = new LsmMergeSimulator(LsmMergeSimulator.Style.LEVELED, b, t, p);
    LsmMergeSimulator tiered = new LsmMergeSimulator(LsmMergeSimulator.Style.TIERED, b, t, p);
    for (int i = 0; i < keys.length; i++) {
      minMax.put(keys[i], i);
      leveled.add(keys[i]);
      tiered.add(keys[i]);
    }
    minMax.flush();
    return new CostComparison(minMax.costs(p), leveled.costs(), tiered.costs());
  }
}
