package io.iam.core.policy;

import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionValues;

/**
 * Bigtable's default (as described by Mathieu et al.): while fewer than k SSTables exist, a flush
 * adds one. Otherwise the flush is merged with the i newest SSTables, i minimal such that
 * afterwards every SSTable is longer than the sum of all newer ones.
 *
 * <p>A merge of newer SSTables never changes the sum of what is newer than an older one, so the
 * rule fixes the start of the merge at the oldest SSTable {@code j} with {@code len(j) <= sum of
 * newer} (if any), and at most at the newest SSTable otherwise (i &ge; 1, leaving at most k).
 */
public final class BigtablePolicy extends BoundedDepthPolicy {

  public static final String NAME = "bigtable";
  public static final OptionTable OPTIONS = boundOnly(NAME);

  public BigtablePolicy(OptionValues options) {
    super(NAME, options);
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int n = s.size();
    if (n - 1 < k) {
      return MergePlan.none();
    }
    // start = newest SSTable (i = 1), but leave at most k components.
    int start = Math.min(n - 2, k - 1);
    long newer = s.sizeBytes(n - 1);
    int oldestBad = -1;
    for (int j = n - 2; j >= 0; j--) {
      if (s.sizeBytes(j) <= newer) {
        oldestBad = j;
      }
      newer += s.sizeBytes(j);
    }
    if (oldestBad >= 0) {
      start = Math.min(start, oldestBad);
    }
    return MergePlan.merge(start, n - 1);
  }
}
