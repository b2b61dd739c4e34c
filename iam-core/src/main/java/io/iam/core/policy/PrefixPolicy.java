package io.iam.core.policy;

import io.iam.core.option.Option;
import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionType;
import io.iam.core.option.OptionValues;
import java.util.List;

/**
 * AsterixDB's Prefix policy, as it stands in AsterixDB 0.9.2 and later (the version our adapter
 * targets). Components larger than M (max-mergable-component-size) are never merged again. Walking
 * from the oldest small component i toward newer ones, the window i..j is merged as soon as its
 * total exceeds M while component i is smaller than R = 1.2 times the rest of the window (R is
 * fixed in AsterixDB). A window that reaches the newest component is merged if it holds at least
 * C (max-tolerance-component-count) components and passes the same ratio test. A window stops early
 * at a large component, or when even components as large as the current one all the way to the
 * newest could not pass the ratio test. Not depth-bounded: large components accumulate.
 */
public final class PrefixPolicy extends AbstractPolicy {

  public static final String NAME = "prefix";

  /** AsterixDB's fixed ratio (borrowed there from HBase). */
  static final double RATIO = 1.2;

  public static final Option<Long> MAX_MERGABLE_SIZE =
      Option.builder("max-mergable-component-size", OptionType.SIZE)
          .defaultValue(1L << 30)
          .bounds(1L, 1L << 50)
          .asterixName("max-mergable-component-size")
          .doc("M: components larger than this are never merged; a merge fires once a window exceeds it")
          .build();

  public static final Option<Integer> MAX_TOLERANCE_COUNT =
      Option.builder("max-tolerance-component-count", OptionType.INT)
          .defaultValue(5)
          .bounds(2, 1000)
          .asterixName("max-tolerance-component-count")
          .doc("C: a window of small components reaching the newest merges once it holds this many")
          .build();

  public static final OptionTable OPTIONS =
      OptionTable.of(NAME + " policy", List.of(MAX_MERGABLE_SIZE, MAX_TOLERANCE_COUNT));

  private final long maxSize;
  private final int tolerance;

  public PrefixPolicy(OptionValues options) {
    super(NAME, options);
    this.maxSize = options.get(MAX_MERGABLE_SIZE);
    this.tolerance = options.get(MAX_TOLERANCE_COUNT);
  }

  @Override
  public int maxComponents() {
    return Integer.MAX_VALUE;
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int n = s.size();
    for (int i = 0; i < n; i++) {
      long first = s.sizeBytes(i);
      if (first > maxSize) {
        continue;
      }
      boolean reachedNewest = true;
      boolean ratioHolds = false;
      long total = first;
      for (int j = i + 1; j < n; j++) {
        long len = s.sizeBytes(j);
        if (len > maxSize) {
          reachedNewest = false;
          break;
        }
        total += len;
        ratioHolds = first < RATIO * (total - first);
        if (total > maxSize && ratioHolds) {
          return MergePlan.merge(i, j);
        }
        if (first >= RATIO * (total + (double) len * (n - j - 1) - first)) {
          reachedNewest = false;
          break;
        }
      }
      if (reachedNewest) {
        if (n - i < tolerance) {
          return MergePlan.none();
        }
        if (ratioHolds) {
          return MergePlan.merge(i, n - 1);
        }
      }
    }
    return MergePlan.none();
  }
}
