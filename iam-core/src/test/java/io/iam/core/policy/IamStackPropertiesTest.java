package io.iam.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.sim.Accounting;
import io.iam.core.sim.FlushStream;
import io.iam.core.sim.RandomFlushes;
import io.iam.core.sim.SimulationResult;
import io.iam.core.sim.Simulator;
import io.iam.core.sim.UniformFlushes;
import io.iam.core.sim.UpdateFlushes;
import java.math.BigInteger;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The iam-stack policy over many seeded random flush sequences and random options: after every
 * decision at most K = max-components components remain, and the stack is in IAM's tiers. A
 * failure names the options, the stream and its seed, and the flush.
 */
class IamStackPropertiesTest {

  private static final int RUNS = 400;
  private static final long FLUSHES = 2000;

  /** Random options; the appended tier A = M/k is drawn against the largest flush. */
  private record Setup(int maxComponents, int boundary, int ratio, long appendBytes) {

    static Setup random(SplittableRandom r, long largestFlush) {
      int max = r.nextInt(2, 13);
      int[] ratios = {2, 3, 4, 10};
      return new Setup(max, r.nextInt(1, max), ratios[r.nextInt(ratios.length)],
          r.nextLong(1, 20 * largestFlush));
    }

    MergePolicy policy() {
      return MergePolicies.create(IamStackPolicy.NAME, Map.of(
          "max-components", Integer.toString(maxComponents),
          "boundary-components", Integer.toString(boundary),
          "size-ratio", Integer.toString(ratio),
          "memory-budget", Long.toString(appendBytes * boundary)));
    }

    /** The level of a component outside the appended tier, computed exactly. */
    int level(long bytes) {
      BigInteger size = BigInteger.valueOf(bytes);
      BigInteger capacity = BigInteger.valueOf(appendBytes).multiply(BigInteger.valueOf(ratio));
      int level = 1;
      while (size.compareTo(capacity) > 0 && level < maxComponents - boundary) {
        capacity = capacity.multiply(BigInteger.valueOf(ratio));
        level++;
      }
      return level;
    }
  }

  /** How often each kind of merge happened over all runs, so that no check is vacuous. */
  private static final class Kinds {
    long spills;
    long depthForced;
    long boundaryMerges;
    long levelMerges;
  }

  @Test
  void everyDecisionLeavesAtMostKComponentsInIamsTiers() {
    SplittableRandom seeds = new SplittableRandom(2019);
    Kinds kinds = new Kinds();
    for (int run = 0; run < RUNS; run++) {
      long seed = seeds.nextLong();
      SplittableRandom r = new SplittableRandom(seed);
      long smallest = r.nextLong(1, 1 << 20);
      long largest = smallest + r.nextLong(0, 8 << 20);
      Setup setup = Setup.random(r, largest);
      FlushStream stream = r.nextBoolean() ? new UniformFlushes(smallest) : new RandomFlushes(smallest, largest, seed);
      String where = setup + " [" + stream.describe() + "]";
      long[] decisions = {0};
      SimulationResult result = new Simulator(setup.policy(), stream, Accounting.MODEL, FLUSHES, null)
          .observe((s, p) -> {
            String at = where + " at flush " + s.flushCount() + " " + s + " " + p;
            checkDecision(setup, s, p, at, kinds);
            checkTiers(setup, Stacks.sizesAfter(s, p), at);
            decisions[0]++;
          })
          .run(FLUSHES);
      assertEquals(FLUSHES, decisions[0], where);
      assertTrue(result.maxComponents() <= setup.maxComponents(), where);
    }
    assertTrue(kinds.spills > 0 && kinds.depthForced > 0 && kinds.boundaryMerges > 0 && kinds.levelMerges > 0,
        "every kind of merge was exercised: spills " + kinds.spills + ", depth-forced " + kinds.depthForced
            + ", boundary " + kinds.boundaryMerges + ", level " + kinds.levelMerges);
  }

  @Test
  void updatesShrinkMergesButNeverBreakTheBound() {
    // With updates a merge writes fewer bytes than its inputs hold, so components can fall back
    // below a tier's sizes; the count bound must hold all the same.
    SplittableRandom seeds = new SplittableRandom(7);
    for (int run = 0; run < 40; run++) {
      long seed = seeds.nextLong();
      SplittableRandom r = new SplittableRandom(seed);
      FlushStream stream = new UpdateFlushes(64, 1024, 0.7, 0.99, seed);
      Setup setup = Setup.random(r, 64 * 1024);
      String where = setup + " [" + stream.describe() + "]";
      SimulationResult result = new Simulator(setup.policy(), stream, Accounting.MODEL, 100, null)
          .observe((s, p) -> {
            String at = where + " at flush " + s.flushCount() + " " + s + " " + p;
            assertTrue(p.isNone() || p.to() == s.size() - 1, at + ": not a suffix");
            assertTrue(p.sizeAfter(s.size()) <= setup.maxComponents(), at);
          })
          .run(1000);
      assertTrue(result.maxComponents() <= setup.maxComponents(), where);
    }
  }

  /**
   * The plan merges a suffix (eager and stable), and appended data is left alone while the
   * appended tier fits its bytes and the stack its depth.
   */
  private static void checkDecision(Setup setup, StackSnapshot s, MergePlan p, String at, Kinds kinds) {
    int n = s.size();
    int start = n;
    long appended = 0;
    while (start > 0 && s.sizeBytes(start - 1) <= setup.appendBytes()) {
      appended += s.sizeBytes(--start);
    }
    if (start < n && appended <= setup.appendBytes() && n <= setup.maxComponents()) {
      assertTrue(p.isNone(), at + ": the flush fits the appended tier, yet a merge");
    }
    if (p.isNone()) {
      return;
    }
    assertTrue(p.from() >= 0 && p.width() >= 2 && p.to() == n - 1, at + ": not a suffix");
    long merged = s.sizeBytes(p.from(), p.to());
    if (merged <= setup.appendBytes()) {
      assertTrue(n > setup.maxComponents(), at + ": merged within the appended tier with room to spare");
      kinds.depthForced++;
    } else if (p.from() >= start) {
      kinds.spills++;
    } else if (setup.level(s.sizeBytes(p.from())) == 1) {
      kinds.boundaryMerges++;
    } else {
      kinds.levelMerges++;
    }
  }

  /**
   * The stack after a decision, oldest first: merging levels (level ≥ 2, one each, deeper the
   * older), then at most k boundary components (level 1), then the appended tier (components of
   * at most A bytes, together at most A); at most K in all.
   */
  private static void checkTiers(Setup setup, long[] sizes, String at) {
    assertTrue(sizes.length <= setup.maxComponents(), at + ": " + sizes.length + " components");
    int appendedStart = sizes.length;
    long appended = 0;
    while (appendedStart > 0 && sizes[appendedStart - 1] <= setup.appendBytes()) {
      appended += sizes[--appendedStart];
    }
    assertTrue(appended <= setup.appendBytes(), at + ": appended tier holds " + appended);
    int boundary = 0;
    int previous = Integer.MAX_VALUE;
    for (int i = 0; i < appendedStart; i++) {
      int level = setup.level(sizes[i]);
      if (level == 1) {
        boundary++;
      } else {
        assertEquals(0, boundary, at + ": level " + level + " at " + i + " is newer than a boundary component");
        assertTrue(level < previous, at + ": level " + level + " at " + i + " is not above level " + previous);
        previous = level;
      }
    }
    assertTrue(boundary <= setup.boundary(), at + ": " + boundary + " boundary components");
  }
}
