package io.iam.bench.jmh;

import io.iam.core.policy.MergePlan;
import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.StackSnapshot;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.RandomFlushes;
import io.iam.core.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The cost of one policy decision at k = 10. The snapshots are the real stacks a policy saw
 * while simulating 4,096 flushes of random length from flush 1,000,000 on (so static policies
 * evaluate their recurrences at realistic t), replayed round-robin.
 *
 * <p>Target: under 1 µs per decision.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PolicyDecisionBenchmark extends SuiteBenchmark {

  @Param({"constant", "bigtable", "exploring", "minlatency", "binomial", "iam-stack", "prefix", "size-tiered"})
  public String policy;

  @Param({"10"})
  public int k;

  private MergePolicy subject;
  private StackSnapshot[] snapshots;
  private int next;

  @Setup
  public void setUp() {
    Map<String, String> options = MergePolicies.descriptor(policy).options().find("max-components").isPresent()
        ? Map.of("max-components", Integer.toString(k))
        : Map.of();
    subject = MergePolicies.create(policy, options);
    List<StackSnapshot> seen = new ArrayList<>();
    long offset = 1_000_000;
    new Simulator(subject, new RandomFlushes(1 << 20, 8 << 20, 42), Accounting.MODEL, 4096, null)
        .observe((snapshot, plan) -> seen.add(shifted(snapshot, offset)))
        .run(4096);
    snapshots = seen.toArray(new StackSnapshot[0]);
  }

  /** The same stack, as if {@code offset} more flushes had happened before it. */
  private static StackSnapshot shifted(StackSnapshot s, long offset) {
    List<io.iam.core.policy.Component> out = new ArrayList<>();
    for (io.iam.core.policy.Component c : s.components()) {
      out.add(new io.iam.core.policy.Component(c.id(), c.sizeBytes(), c.firstFlush() + offset,
          c.lastFlush() + offset, c.sortedRuns(), c.merging(), c.keyRange()));
    }
    return StackSnapshot.of(out, s.flushCount() + offset);
  }

  @Benchmark
  public MergePlan decide() {
    StackSnapshot s = snapshots[next];
    next = next + 1 == snapshots.length ? 0 : next + 1;
    return subject.plan(s);
  }
}
