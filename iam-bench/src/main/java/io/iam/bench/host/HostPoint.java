package io.iam.bench.host;

import io.iam.core.policy.MergePolicy;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.ReplayedFlushes;
import io.iam.core.sim.SimulationResult;
import io.iam.core.sim.Simulator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A policy's run in a host beside the simulator's run of the same flushes: the simulator replays
 * the host's own flush sizes under the same policy, and a flushed component is written, then
 * merged, as hosts do ({@link Accounting#FLUSH_THEN_MERGE}). A merge writes the sum of its inputs
 * less the host's fixed bytes for every input after the first ({@link
 * ReplayedFlushes#withFixedBytes}, {@link FixedBytesCalibration}).
 *
 * <p>A store partitioned over several nodes runs the policy once per partition: each partition's
 * flushes are simulated on their own ({@link #nodes}), and the point's figures are their total, as
 * {@link HostRun#ofNodes} adds up the host's.
 *
 * @param point the policy and its k (null for a baseline at its defaults)
 * @param run what the host wrote
 * @param simulated what the simulator wrote for the same flushes
 * @param nodes each partition's point, by node name; empty for one store on one node
 * @param fixedBytes the bytes of each component the simulator took as fixed
 */
public record HostPoint(HostSweepPlan.Point point, HostRun run, SimulationResult simulated,
    Map<String, HostPoint> nodes, long fixedBytes) {

  /**
   * Simulates the policy {@code point} names (a fresh one from {@code policies} for each partition)
   * over {@code run}'s flushes, each component holding {@code fixedBytes} that a merge writes once.
   */
  public static HostPoint of(HostSweepPlan.Point point, Supplier<MergePolicy> policies, HostRun run,
      long fixedBytes) {
    if (run.nodes().isEmpty()) {
      return new HostPoint(point, run, simulate(policies.get(), run, fixedBytes), Map.of(), fixedBytes);
    }
    Map<String, HostPoint> nodes = new LinkedHashMap<>();
    run.nodes().forEach((name, r) -> nodes.put(name, of(point, policies, r, fixedBytes)));
    List<SimulationResult> sims = nodes.values().stream().map(HostPoint::simulated).toList();
    SimulationResult first = sims.get(0);
    SimulationResult total = new SimulationResult(first.policy(), first.options(), run.host() + " partitions",
        first.accounting(), sims.stream().mapToLong(SimulationResult::flushes).sum(),
        sims.stream().mapToLong(SimulationResult::bytesFlushed).sum(),
        sims.stream().mapToLong(SimulationResult::bytesWritten).sum(),
        sims.stream().mapToLong(SimulationResult::merges).sum(),
        sims.stream().mapToDouble(SimulationResult::averageComponents).average().orElse(0),
        sims.stream().mapToInt(SimulationResult::maxComponents).max().orElse(0), List.of(),
        sims.stream().mapToLong(SimulationResult::elapsedNanos).sum());
    return new HostPoint(point, run, total, nodes, fixedBytes);
  }

  private static SimulationResult simulate(MergePolicy policy, HostRun run, long fixedBytes) {
    int flushes = run.flushLengths().size();
    return new Simulator(policy, ReplayedFlushes.withFixedBytes(run.host(), run.flushLengths(), fixedBytes),
        Accounting.FLUSH_THEN_MERGE, Math.max(1, flushes), steps -> {}).run(flushes);
  }

  /** The point's figures as a sweep keeps them. */
  public HostSweepRow row() {
    return HostSweepRow.of(this);
  }
}
