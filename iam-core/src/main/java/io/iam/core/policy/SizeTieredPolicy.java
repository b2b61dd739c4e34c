package io.iam.core.policy;

import io.iam.core.option.Option;
import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionType;
import io.iam.core.option.OptionValues;
import java.util.List;
import java.util.Optional;

/**
 * Size-tiered merging in the style of RocksDB's universal compaction, which (unlike Cassandra's
 * STCS bucketing) keeps merges contiguous in age, so the stack stays stable. Nothing happens while
 * fewer than {@code compaction-trigger} components exist. Then, in order:
 *
 * <ol>
 *   <li><b>space amplification</b>: if all components but the oldest add up to at least
 *       max-size-amplification-percent of the oldest, merge everything;
 *   <li><b>size ratio</b>: starting at the newest component, grow a window toward older ones while
 *       the next older one is at most (100 + size-ratio)% of the window's total; merge the first
 *       window (trying each start from newest to oldest) with at least min-merge-width components,
 *       capped at max-merge-width;
 *   <li><b>component count</b>: if more than compaction-trigger components remain, merge the newest
 *       ones so that exactly compaction-trigger remain.
 * </ol>
 *
 * Hence at most {@code compaction-trigger} components remain after each decision.
 */
public final class SizeTieredPolicy extends AbstractPolicy {

  public static final String NAME = "size-tiered";

  public static final Option<Integer> SIZE_RATIO =
      Option.builder("size-ratio", OptionType.INT)
          .defaultValue(1)
          .bounds(0, 10_000)
          .doc("percent by which the next older component may exceed the window's total and still join it")
          .build();

  public static final Option<Integer> MIN_MERGE_WIDTH =
      Option.builder("min-merge-width", OptionType.INT)
          .defaultValue(2)
          .bounds(2, 10_000)
          .asterixName("min-merge-component-count")
          .doc("the fewest components a size-ratio merge takes")
          .build();

  public static final Option<Integer> MAX_MERGE_WIDTH =
      Option.builder("max-merge-width", OptionType.INT)
          .defaultValue(10_000)
          .bounds(2, 10_000)
          .asterixName("max-merge-component-count")
          .doc("the most components a size-ratio or count merge takes")
          .build();

  public static final Option<Integer> MAX_SIZE_AMPLIFICATION =
      Option.builder("max-size-amplification-percent", OptionType.INT)
          .defaultValue(200)
          .bounds(1, 1_000_000)
          .doc("merge everything once the newer components reach this percent of the oldest")
          .build();

  public static final Option<Integer> COMPACTION_TRIGGER =
      Option.builder("compaction-trigger", OptionType.INT)
          .defaultValue(4)
          .bounds(1, 10_000)
          .asterixName("max-component-count")
          .doc("merging starts at this many components, and at most this many remain after a decision")
          .build();

  public static final OptionTable OPTIONS =
      OptionTable.of(
          NAME + " policy",
          List.of(SIZE_RATIO, MIN_MERGE_WIDTH, MAX_MERGE_WIDTH, MAX_SIZE_AMPLIFICATION, COMPACTION_TRIGGER),
          v ->
              v.get(MIN_MERGE_WIDTH) <= v.get(MAX_MERGE_WIDTH)
                  ? Optional.empty()
                  : Optional.of(
                      v.nameOf(MIN_MERGE_WIDTH) + "=" + v.get(MIN_MERGE_WIDTH) + " exceeds " + v.nameOf(MAX_MERGE_WIDTH)
                          + "=" + v.get(MAX_MERGE_WIDTH) + ": allowed " + v.nameOf(MIN_MERGE_WIDTH) + " <= "
                          + v.nameOf(MAX_MERGE_WIDTH)));

  private final int sizeRatio;
  private final int minWidth;
  private final int maxWidth;
  private final int maxSizeAmp;
  private final int trigger;

  public SizeTieredPolicy(OptionValues options) {
    super(NAME, options);
    this.sizeRatio = options.get(SIZE_RATIO);
    this.minWidth = options.get(MIN_MERGE_WIDTH);
    this.maxWidth = options.get(MAX_MERGE_WIDTH);
    this.maxSizeAmp = options.get(MAX_SIZE_AMPLIFICATION);
    this.trigger = options.get(COMPACTION_TRIGGER);
  }

  @Override
  public int maxComponents() {
    return trigger;
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int n = s.size();
    if (n < trigger) {
      return MergePlan.none();
    }
    if ((double) s.sizeBytes(1, n - 1) * 100 >= (double) maxSizeAmp * s.sizeBytes(0)) {
      return MergePlan.merge(0, n - 1);
    }
    for (int newest = n - 1; newest > 0; newest--) {
      long window = s.sizeBytes(newest);
      int oldest = newest;
      while (oldest > 0
          && newest - oldest + 1 < maxWidth
          && (double) window * (100 + sizeRatio) / 100 >= s.sizeBytes(oldest - 1)) {
        oldest--;
        window += s.sizeBytes(oldest);
      }
      if (newest - oldest + 1 >= minWidth) {
        return MergePlan.merge(oldest, newest);
      }
    }
    if (n > trigger) {
      int width = Math.min(n - trigger + 1, maxWidth);
      return MergePlan.merge(n - width, n - 1);
    }
    return MergePlan.none();
  }
}
