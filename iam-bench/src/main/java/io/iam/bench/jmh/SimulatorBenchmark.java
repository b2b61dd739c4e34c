package io.iam.bench.jmh;

import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.SimulationResult;
import io.iam.core.sim.Simulator;
import io.iam.core.sim.UniformFlushes;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Simulator throughput: one invocation simulates {@value #FLUSHES} uniform flushes, so the
 * reported score is flushes per second.
 *
 * <p>Target: at least 5 million flushes per second for MinLatency and Binomial.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SimulatorBenchmark extends SuiteBenchmark {

  static final int FLUSHES = 1_000_000;

  @Param({"minlatency", "binomial"})
  public String policy;

  @Param({"6", "10"})
  public int k;

  private MergePolicy subject;

  @Setup
  public void setUp() {
    subject = MergePolicies.create(policy, Map.of("max-components", Integer.toString(k)));
  }

  @Benchmark
  @OperationsPerInvocation(FLUSHES)
  public SimulationResult simulate() {
    return new Simulator(subject, new UniformFlushes(4 << 20), Accounting.MODEL, FLUSHES, null).run(FLUSHES);
  }
}
