package io.iam.bench.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code iam simulate --sweep} runs, after the bounded-depth paper's experiments: every
 * bounded policy of that paper × k, to 100,000 flushes (1,000,000 for k = 10, as in the paper's
 * Fig. 8), plus the unbounded prefix and size-tiered policies at their defaults as reference
 * lines. iam-stack is not in the sweep: it also depends on a memory budget the paper's runs have
 * no counterpart for (docs/policies.md simulates it on its own).
 */
final class SweepPlan {

  static final List<String> BOUNDED = List.of("constant", "bigtable", "exploring", "minlatency", "binomial");
  static final List<String> REFERENCE = List.of("prefix", "size-tiered");
  static final List<Integer> KS = List.of(3, 4, 5, 6, 7, 8, 10);

  /** The paper's flush counts, where sweep.csv reports each run. */
  static final List<Long> CHECKPOINTS = List.of(2_000L, 24_000L, 100_000L, 1_000_000L);

  /** Series interval; divides every checkpoint, so {@code SimulationResult.at} finds them. */
  static final long EVERY = 100;

  /** The long and short horizons of the paper's Fig. 2 (top row) and of series.csv. */
  static final long LONG_HORIZON = 24_000;
  static final long SHORT_HORIZON = 2_000;

  /** One simulation of the sweep; {@code k} is null for the reference policies. */
  record Run(String policy, Integer k, long flushes) {
    Map<String, String> options() {
      return k == null ? Map.of() : Map.of(PolicyChoice.K_KEY, k.toString());
    }

    String label() {
      return k == null ? policy : policy + " k=" + k;
    }
  }

  private SweepPlan() {}

  /** The runs, each capped at {@code maxFlushes} (use {@link Long#MAX_VALUE} for the paper's). */
  static List<Run> runs(long maxFlushes) {
    List<Run> runs = new ArrayList<>();
    for (String policy : BOUNDED) {
      for (int k : KS) {
        runs.add(new Run(policy, k, Math.min(maxFlushes, k == 10 ? 1_000_000 : 100_000)));
      }
    }
    for (String policy : REFERENCE) {
      runs.add(new Run(policy, null, Math.min(maxFlushes, 100_000)));
    }
    return runs;
  }

  /** The checkpoints a run of {@code flushes} reports: the paper's below it, and its end. */
  static List<Long> checkpoints(long flushes) {
    List<Long> out = new ArrayList<>();
    for (long c : CHECKPOINTS) {
      if (c < flushes) {
        out.add(c);
      }
    }
    out.add(flushes);
    return out;
  }

  /** Where a chart or table of a run of {@code maxFlushes} stops: {@code horizon} or earlier. */
  static long horizon(long horizon, long maxFlushes) {
    return Math.min(horizon, maxFlushes);
  }
}
