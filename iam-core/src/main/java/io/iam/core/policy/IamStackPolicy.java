package io.iam.core.policy;

import io.iam.core.option.Option;
import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionType;
import io.iam.core.option.OptionValues;
import java.util.List;
import java.util.Optional;

/**
 * The IAM-tree's flush strategy (Gong, He, Gong, Lei, ICPP 2019, §5.1) for engines whose components cannot
 * be split by key range, such as AsterixDB's: a stack policy. Each IAM level becomes a tier of the
 * stack, newest first:
 *
 * <ol>
 *   <li><b>Appended tier</b> (the paper's appending levels, above m). The newest components of at
 *       most A = M/k bytes each, together at most A bytes. A flush that fits is only appended:
 *       nothing is rewritten. The flush that would take the tier past A merges with it into one
 *       component (of more than A bytes), which leaves the tier: the stack's version of LSA
 *       flushing a full node to the next level, which writes its data once. A flush larger than A
 *       skips the tier unmerged; components still in the tier then count with the boundary tier.
 *   <li><b>Boundary tier</b> (the mixed level m): components of level 1, at most k of them. A
 *       component that arrives when k are there merges with all k into one (the paper's "for a
 *       child with k sequences, the partitioned records will be merged with it").
 *   <li><b>Merging levels</b> (below m), one component each, leveled with size ratio t: level j
 *       holds up to t^j × A bytes (level 1, the boundary tier, up to t × A). A component that
 *       outgrows its level merges with the next older one when that one is at the same or a lower
 *       level, and so on down, so levels grow older-to-deeper with one component each.
 * </ol>
 *
 * <p><b>Where M/k comes from.</b> The paper caches every appended sequence: the appending levels
 * plus the appended (not merge-generated) sequences of the mixed level must fit the cache M,
 * {@code Σ_{j<m} D_j + S_{m,k} ≤ M} (2), with {@code S_{m,k} = D_m (k−1)/t} (1). Here the appended
 * tier is the levels above m, {@code Σ_{j<m} D_j = A}; the boundary tier holds up to {@code D_m =
 * t·A}, so (1) gives {@code S_{m,k} = (k−1)·A} (its k−1 appended components of about A each) and
 * (2) becomes {@code k·A ≤ M}. The largest A is M/k. (The IAM engine's chooser, given levels
 * {@code [A, t·A]} and cache M = k·A, picks exactly this m = 2 and k.) Each component leaving the
 * appended tier holds at most A plus one flush, so the appended data stays within M + (k−1) ×
 * the largest flush. The paper's variant that leaves half the cache to merged data is M = half the
 * cache.
 *
 * <p><b>Depth.</b> At most K = {@code max-components} components remain after every decision. The
 * merging levels stop at level K − k, the deepest, which takes whatever grows past it; so at most
 * K − k − 1 merging levels and k boundary components exist, which leaves the appended tier at least
 * one place. When a flush would make K + 1 components while the appended tier is within its bytes,
 * the tier merges into one component and stays appended (at most A bytes): too many small flushes
 * for K then cost rewrites, as under any depth bound. K bounds every stack this policy leaves; on
 * a stack another policy built, a decision that would leave more than K merges the newest ones
 * down to K.
 *
 * <p><b>Cost</b> (the paper's §5.3.1, in a stack). Each byte is written by its flush, once more
 * when it leaves the appended tier, on average t/(2k) + 1 times in the boundary tier (it merges
 * once per k arrivals there), and about t/2 + 1 times in each merging level; the deepest level's
 * cost grows with the data once that passes its t^(K−k) × A bytes.
 *
 * <p>Every plan merges a suffix of the stack (the flush and some newer components), so the policy
 * is eager and stable. Pure: the decision depends on the component sizes only.
 */
public final class IamStackPolicy extends AbstractPolicy {

  public static final String NAME = "iam-stack";

  /**
   * k, the paper's cap on the mixed level's sequences. With k = 2 the boundary tier holds its
   * merged component and one newcomer; the second newcomer merges all three.
   */
  public static final Option<Integer> BOUNDARY_COMPONENTS =
      Option.builder("boundary-components", OptionType.INT)
          .defaultValue(2)
          .bounds(1, StackMath.MAX_K - 1)
          .asterixName("max-tolerance-component-count")
          .doc("k of the IAM paper: the boundary tier holds at most this many components; one more merges them all")
          .build();

  /**
   * t, the paper's fan-out. With t = 10 and A = 128 MiB the boundary tier holds up to 1.25 GiB,
   * level 2 up to 12.5 GiB, level 3 up to 125 GiB.
   */
  public static final Option<Integer> SIZE_RATIO =
      Option.builder("size-ratio", OptionType.INT)
          .defaultValue(10)
          .bounds(2, 1000)
          .asterixName("size-ratio")
          .doc("t: level j below the appended tier holds up to t^j × M/k bytes (the boundary tier is level 1)")
          .build();

  /**
   * M, the cache the appended data may take. The default 256 MiB with k = 2 gives an appended tier
   * of A = 128 MiB: one HBase memstore flush of 128 MiB, or 32 flushes of 4 MiB if the depth bound
   * leaves them room.
   */
  public static final Option<Long> MEMORY_BUDGET =
      Option.builder("memory-budget", OptionType.SIZE)
          .defaultValue(256L << 20)
          .bounds(1L, 1L << 50)
          .asterixName("max-mergable-component-size")
          .doc("M of the IAM paper's inequality (2): cache for appended data; the appended tier holds M/k bytes")
          .build();

  public static final OptionTable OPTIONS =
      OptionTable.of(
          NAME + " policy",
          List.of(PolicyOptions.MAX_COMPONENTS, BOUNDARY_COMPONENTS, SIZE_RATIO, MEMORY_BUDGET),
          v ->
              v.get(BOUNDARY_COMPONENTS) < v.get(PolicyOptions.MAX_COMPONENTS)
                  ? Optional.empty()
                  : Optional.of(
                      v.nameOf(BOUNDARY_COMPONENTS) + "=" + v.get(BOUNDARY_COMPONENTS) + " leaves no room below "
                          + v.nameOf(PolicyOptions.MAX_COMPONENTS) + "=" + v.get(PolicyOptions.MAX_COMPONENTS)
                          + ": allowed " + v.nameOf(BOUNDARY_COMPONENTS) + " <= "
                          + v.nameOf(PolicyOptions.MAX_COMPONENTS) + " - 1"));

  private final int maxComponents;
  private final int boundary;
  private final int ratio;
  private final long appendBytes;
  private final int deepestLevel;

  public IamStackPolicy(OptionValues options) {
    super(NAME, options);
    this.maxComponents = options.get(PolicyOptions.MAX_COMPONENTS);
    this.boundary = options.get(BOUNDARY_COMPONENTS);
    this.ratio = options.get(SIZE_RATIO);
    this.appendBytes = appendBytes(options.get(MEMORY_BUDGET), boundary);
    this.deepestLevel = maxComponents - boundary;
  }

  /** A = M/k, the appended tier's bytes (inequality (2) with S_{m,k} = (k−1)·A); at least 1. */
  static long appendBytes(long memoryBudget, int boundary) {
    return Math.max(1, memoryBudget / boundary);
  }

  @Override
  public int maxComponents() {
    return maxComponents;
  }

  @Override
  MergePlan planQuiescent(StackSnapshot s) {
    int n = s.size();
    // The appended tier: the newest run of components of at most A bytes each.
    int start = n;
    long appended = 0;
    while (start > 0 && s.sizeBytes(start - 1) <= appendBytes) {
      appended += s.sizeBytes(--start);
    }
    if (start < n && appended <= appendBytes) {
      // The flush is appended. Only the depth bound can force a merge: the tier becomes one
      // component of at most A bytes and stays appended.
      return n <= maxComponents ? MergePlan.none() : MergePlan.suffix(Math.min(start, maxComponents - 1), n);
    }
    // The tier overflowed (it leaves as one component), or the flush alone exceeds A.
    int from = start < n ? start : n - 1;
    long bytes = start < n ? appended : s.sizeBytes(n - 1);
    return MergePlan.suffix(Math.min(settle(s, from, bytes), maxComponents - 1), n);
  }

  /**
   * Where a component of {@code bytes} made of {@code from..newest} comes to rest: the index of
   * the oldest component it must merge with (or {@code from} itself).
   */
  private int settle(StackSnapshot s, int from, long bytes) {
    int level = level(bytes);
    if (level == 1) {
      int first = from;
      long tier = 0;
      while (first > 0 && level(s.sizeBytes(first - 1)) == 1) {
        tier += s.sizeBytes(--first);
      }
      if (from - first + 1 <= boundary) {
        return from; // joins the boundary tier
      }
      bytes += tier; // k are there already: all of them merge into one
      from = first;
      level = level(bytes);
    }
    // One component per merging level, deeper the older: merge while the next older one is not
    // on a deeper level than the component being formed.
    while (from > 0 && level(s.sizeBytes(from - 1)) <= level) {
      bytes += s.sizeBytes(--from);
      level = level(bytes);
    }
    return from;
  }

  /**
   * The level of a component outside the appended tier: the least j ≥ 1 with {@code bytes ≤ t^j ×
   * A}, at most K − k (the deepest level takes everything larger).
   */
  int level(long bytes) {
    int level = 1;
    long capacity = saturatingTimes(appendBytes, ratio);
    while (bytes > capacity && level < deepestLevel) {
      capacity = saturatingTimes(capacity, ratio);
      level++;
    }
    return level;
  }

  private static long saturatingTimes(long a, int b) {
    return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }
}
