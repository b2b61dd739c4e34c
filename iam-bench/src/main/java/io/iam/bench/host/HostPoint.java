package io.iam.bench.host;

import io.iam.core.policy.MergePolicy;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.ReplayedFlushes;
import io.iam.core.sim.SimulationResult;
import io.iam.core.sim.Simulator;

/**
 * A policy's run in a host beside the simulator's run of the same flushes: the simulator replays
 * the host's own flush sizes under the same policy, and a flushed component is written, then
 * merged, as hosts do ({@link Accounting#FLUSH_THEN_MERGE}).
 *
 * @param point the policy and its k (null for a baseline at its defaults)
 * @param run what the host wrote
 * @param simulated what the simulator wrote for the same flushes
 */
public record HostPoint(HostSweepPlan.Point point, HostRun run, SimulationResult simulated) {

  /** Simulates {@code policy} (a fresh one, as {@code point} names it) over {@code run}'s flushes. */
  public static HostPoint of(HostSweepPlan.Point point, MergePolicy policy, HostRun run) {
    int flushes = run.flushLengths().size();
    SimulationResult sim = new Simulator(policy, new ReplayedFlushes(run.host(), run.flushLengths(), null),
        Accounting.FLUSH_THEN_MERGE, Math.max(1, flushes), steps -> {}).run(flushes);
    return new HostPoint(point, run, sim);
  }

  /** The point's figures as a sweep keeps them. */
  public HostSweepRow row() {
    return HostSweepRow.of(this);
  }
}
