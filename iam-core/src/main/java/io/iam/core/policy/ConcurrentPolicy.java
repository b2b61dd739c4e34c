package io.iam.core.policy;

import io.iam.core.option.Option;
import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionType;
import io.iam.core.option.OptionValues;
import java.util.List;

/**
 * AsterixDB's Concurrent policy, its default since 0.9.5 (written here from its documented rule, for
 * the simulator and as a baseline; the adapter runs AsterixDB's own). Each candidate is the oldest
 * component of a window that ends at most D ({@code max-merge}) components further toward the
 * newest; walking from the oldest candidate toward newer ones, the first window whose oldest
 * component is at most λ ({@code ratio}) times the rest of the window is merged. A window holds at
 * least C ({@code min-merge}) components, so fewer than C components never merge. The keys are
 * Exploring's for the same quantities; AsterixDB's names are the options' AsterixDB names. K
 * ({@code max-component-count}) only holds back flushes in
 * AsterixDB while merges run; it changes no decision, so a store that lets each merge finish before
 * the next flush, as the simulator does, never sees it. Not depth-bounded.
 */
public final class ConcurrentPolicy extends AbstractPolicy {

  public static final String NAME = "concurrent";

  public static final Option<Integer> MAX_COMPONENT_COUNT =
      Option.builder("max-component-count", OptionType.INT)
          .defaultValue(30)
          .bounds(1, 10_000)
          .asterixName("max-component-count")
          .doc("K: AsterixDB holds back flushes at this many components while a merge runs; no decision depends on it")
          .build();

  public static final Option<Integer> MIN_MERGE_COUNT =
      Option.builder("min-merge", OptionType.INT)
          .defaultValue(3)
          .bounds(2, 10_000)
          .asterixName("min-merge-component-count")
          .doc("C: the fewest components one merge takes")
          .build();

  public static final Option<Integer> MAX_MERGE_COUNT =
      Option.builder("max-merge", OptionType.INT)
          .defaultValue(10)
          .bounds(2, 10_000)
          .asterixName("max-merge-component-count")
          .doc("D: the most components one merge takes")
          .build();

  public static final Option<Double> SIZE_RATIO =
      Option.builder("ratio", OptionType.DOUBLE)
          .defaultValue(1.2)
          .bounds(0.0, 1000.0)
          .asterixName("size-ratio")
          .doc("λ: a window merges only if its oldest component is at most λ × the rest of the window")
          .build();

  public static final OptionTable OPTIONS = OptionTable.of(NAME + " policy",
      List.of(MAX_COMPONENT_COUNT, MIN_MERGE_COUNT, MAX_MERGE_COUNT, SIZE_RATIO));

  private final int minMerge;
  private final int maxMerge;
  private final double ratio;

  public ConcurrentPolicy(OptionValues options) {
    super(NAME, options);
    this.minMerge = options.get(MIN_MERGE_COUNT);
    this.maxMerge = options.get(MAX_MERGE_COUNT);
    this.ratio = options.get(SIZE_RATIO);
  }

  @Override
  public int maxComponents() {
    return Integer.MAX_VALUE;
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int n = s.size();
    for (int oldest = 0; oldest <= n - minMerge; oldest++) {
      int newest = Math.min(oldest + maxMerge - 1, n - 1);
      if (s.sizeBytes(oldest) <= ratio * s.sizeBytes(oldest + 1, newest)) {
        return MergePlan.merge(oldest, newest);
      }
    }
    return MergePlan.none();
  }
}
