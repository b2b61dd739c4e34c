package io.iam.core.policy;

import io.iam.core.option.Option;
import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionType;
import io.iam.core.option.OptionValues;
import java.util.List;
import java.util.Optional;

/**
 * Exploring (HBase's default), as the bounded-depth paper defines it. With the flush as the newest
 * component, consider every contiguous run s of at least C and at most D components in which the
 * largest is at most λ times the sum of the others. If one exists, merge the longest (when there
 * are at most k components; ties go to the smaller total, then to the oldest) or the one with the
 * least average length (when there are more than k; ties go to the oldest). If none exists and
 * there are more than k components, merge the C contiguous components of least total length.
 *
 * <p>Unlike the others this policy is not eager: the flush may stay on its own while older
 * components merge.
 */
public final class ExploringPolicy extends BoundedDepthPolicy {

  public static final String NAME = "exploring";

  public static final Option<Double> RATIO =
      Option.builder("ratio", OptionType.DOUBLE)
          .defaultValue(1.2)
          .bounds(0.01, 1000.0)
          .asterixName("size-ratio")
          .doc("λ: a run may merge only if its largest component is at most λ × the sum of the others")
          .build();

  public static final Option<Integer> MIN_MERGE =
      Option.builder("min-merge", OptionType.INT)
          .defaultValue(2)
          .bounds(2, 1000)
          .asterixName("min-merge-component-count")
          .doc("C: the fewest components one merge takes")
          .build();

  public static final Option<Integer> MAX_MERGE =
      Option.builder("max-merge", OptionType.INT)
          .defaultValue(10)
          .bounds(2, 1000)
          .asterixName("max-merge-component-count")
          .doc("D: the most components one merge takes")
          .build();

  public static final OptionTable OPTIONS =
      OptionTable.of(
          NAME + " policy",
          List.of(PolicyOptions.MAX_COMPONENTS, RATIO, MIN_MERGE, MAX_MERGE),
          v ->
              v.get(MIN_MERGE) <= v.get(MAX_MERGE)
                  ? Optional.empty()
                  : Optional.of(
                      v.nameOf(MIN_MERGE) + "=" + v.get(MIN_MERGE) + " exceeds " + v.nameOf(MAX_MERGE) + "="
                          + v.get(MAX_MERGE) + ": allowed " + v.nameOf(MIN_MERGE) + " <= " + v.nameOf(MAX_MERGE)));

  private final double ratio;
  private final int minMerge;
  private final int maxMerge;

  public ExploringPolicy(OptionValues options) {
    super(NAME, options);
    this.ratio = options.get(RATIO);
    this.minMerge = options.get(MIN_MERGE);
    this.maxMerge = options.get(MAX_MERGE);
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int n = s.size();
    boolean overfull = n > k;
    int bestFrom = -1;
    int bestTo = -1;
    long bestTotal = 0;
    for (int a = 0; a < n; a++) {
      long total = 0;
      long max = 0;
      int last = Math.min(n - 1, a + maxMerge - 1);
      for (int b = a; b <= last; b++) {
        long len = s.sizeBytes(b);
        total += len;
        max = Math.max(max, len);
        int width = b - a + 1;
        if (width < minMerge || max > ratio * (total - max)) {
          continue;
        }
        if (bestFrom < 0 || (overfull ? lowerAverage(total, width, bestTotal, bestTo - bestFrom + 1)
            : longer(total, width, bestTotal, bestTo - bestFrom + 1))) {
          bestFrom = a;
          bestTo = b;
          bestTotal = total;
        }
      }
    }
    if (bestFrom >= 0) {
      return MergePlan.merge(bestFrom, bestTo);
    }
    return overfull ? cheapestRun(s) : MergePlan.none();
  }

  private static boolean longer(long total, int width, long bestTotal, int bestWidth) {
    return width > bestWidth || (width == bestWidth && total < bestTotal);
  }

  private static boolean lowerAverage(long total, int width, long bestTotal, int bestWidth) {
    return (double) total / width < (double) bestTotal / bestWidth;
  }

  /** The C contiguous components of least total length (all of them if fewer than C exist). */
  private MergePlan cheapestRun(StackSnapshot s) {
    int n = s.size();
    int width = Math.min(minMerge, n);
    long window = s.sizeBytes(0, width - 1);
    long best = window;
    int bestFrom = 0;
    for (int a = 1; a + width <= n; a++) {
      window += s.sizeBytes(a + width - 1) - s.sizeBytes(a - 1);
      if (window < best) {
        best = window;
        bestFrom = a;
      }
    }
    return MergePlan.merge(bestFrom, bestFrom + width - 1);
  }
}
