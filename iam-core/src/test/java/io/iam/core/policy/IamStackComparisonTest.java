package io.iam.core.policy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.sim.Accounting;
import io.iam.core.sim.FlushStream;
import io.iam.core.sim.RandomFlushes;
import io.iam.core.sim.Simulator;
import io.iam.core.sim.UniformFlushes;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The iam-stack policy against the other stack policies in the cost model, on the directions its
 * design predicts: the IAM paper's (more boundary components, fewer rewrites; Table 3) and the
 * trade-off of keeping merged data in few components below a cached appended tier (fewer
 * components outside the cache than Binomial, which in turn has the least worst-case write
 * amplification for depth k; far fewer rewrites than Constant).
 */
class IamStackComparisonTest {

  private static final long FLUSH = 4L << 20;
  private static final long MEMORY = 64L << 20;
  private static final long FLUSHES = 10_000;

  private static List<Supplier<FlushStream>> streams() {
    return List.of(() -> new UniformFlushes(FLUSH), () -> new RandomFlushes(FLUSH / 4, FLUSH * 2, 42));
  }

  /** Write amplification, the most components after any decision and the mean count uncached. */
  private record Outcome(double writeAmplification, int maxComponents, double uncached) {}

  /**
   * Runs {@code policy}; a component counts as uncached after a decision unless it lies wholly
   * within the newest {@code cacheBytes} of the stack (the IAM paper's cache of the newest data).
   */
  private static Outcome run(String policy, Map<String, String> options, FlushStream stream, long cacheBytes) {
    long[] uncached = {0};
    var result = new Simulator(MergePolicies.create(policy, options), stream, Accounting.MODEL, FLUSHES, null)
        .observe((s, p) -> {
          long[] sizes = Stacks.sizesAfter(s, p);
          long newer = 0;
          for (int i = sizes.length - 1; i >= 0; i--) {
            newer += sizes[i];
            if (newer > cacheBytes) {
              uncached[0]++;
            }
          }
        })
        .run(FLUSHES);
    return new Outcome(result.writeAmplification(), result.maxComponents(), (double) uncached[0] / FLUSHES);
  }

  private static Map<String, String> iamStack(int maxComponents, int boundary, long memory) {
    return Map.of("max-components", Integer.toString(maxComponents),
        "boundary-components", Integer.toString(boundary), "memory-budget", Long.toString(memory));
  }

  @Test
  void moreBoundaryComponentsRewriteLessAtTheSameAppendedTier() {
    // The paper's Table 3: the mixed level's cap k = 1 (plain leveling), 2, 3, with the levels
    // above it unchanged: here the appended tier A = M/k is fixed and K is large enough never to
    // force a merge.
    long appended = 16L << 20;
    int depth = 16;
    for (Supplier<FlushStream> stream : streams()) {
      double previous = Double.MAX_VALUE;
      for (int k = 1; k <= 3; k++) {
        Outcome o = run(IamStackPolicy.NAME, iamStack(depth, k, k * appended), stream.get(), k * appended);
        String at = "k=" + k + " " + stream.get().describe() + ": " + o;
        assertTrue(o.maxComponents() < depth, at + ": the depth bound was reached");
        assertTrue(o.writeAmplification() < previous, at + " is not below k-1's " + previous);
        previous = o.writeAmplification();
      }
    }
  }

  /** A check of iam-stack's outcome against another policy's at the same depth. */
  @FunctionalInterface
  private interface Check {
    void check(Outcome iamStack, Outcome other, String at);
  }

  /** Runs iam-stack (k = 2, M = 64 MiB) and {@code other} at K = 4, 6, 8, 10 on each stream. */
  private static void atEachDepth(String other, Check check) {
    for (Supplier<FlushStream> stream : streams()) {
      for (int depth : new int[] {4, 6, 8, 10}) {
        Outcome iam = run(IamStackPolicy.NAME, iamStack(depth, 2, MEMORY), stream.get(), MEMORY);
        Outcome them = run(other, Map.of("max-components", Integer.toString(depth)), stream.get(), MEMORY);
        String at = "K=" + depth + " " + stream.get().describe() + ": iam-stack " + iam + ", " + other + " " + them;
        check.check(iam, them, at);
      }
    }
  }

  @Test
  void rewritesLessThanConstantAtTheSameDepth() {
    atEachDepth(ConstantPolicy.NAME,
        (iam, constant, at) -> assertTrue(iam.writeAmplification() < constant.writeAmplification(), at));
  }

  @Test
  void keepsFewerComponentsOutsideTheCacheThanBinomialWhichRewritesLess() {
    atEachDepth(BinomialPolicy.NAME, (iam, binomial, at) -> {
      assertTrue(iam.uncached() < binomial.uncached(), at);
      assertTrue(iam.writeAmplification() > binomial.writeAmplification(), at);
    });
  }
}
