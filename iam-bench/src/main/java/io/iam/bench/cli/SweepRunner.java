package io.iam.bench.cli;

import io.iam.core.policy.MergePolicies;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.SimulationResult;
import io.iam.core.sim.Simulator;
import io.iam.core.sim.UniformFlushes;
import io.iam.core.util.DaemonThreads;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;

/** Runs the simulations of a sweep on a thread pool, one simulator per run. */
final class SweepRunner {

  /** A run and its result. */
  record Outcome(SweepPlan.Run run, SimulationResult result) {}

  private final long flushSize;
  private final Accounting accounting;
  private final int threads;

  SweepRunner(long flushSize, Accounting accounting, int threads) {
    this.flushSize = flushSize;
    this.accounting = accounting;
    this.threads = threads;
  }

  /** Runs every run (longest first, to balance the pool); outcomes come back in plan order. */
  List<Outcome> run(List<SweepPlan.Run> plan, LongConsumer progress) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(threads, DaemonThreads.named("iam-sweep-"));
    try {
      List<Future<Outcome>> futures = new ArrayList<>(plan.size());
      for (int i = 0; i < plan.size(); i++) {
        futures.add(null);
      }
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < plan.size(); i++) {
        order.add(i);
      }
      order.sort(Comparator.comparingLong((Integer i) -> plan.get(i).flushes()).reversed());
      for (int i : order) {
        SweepPlan.Run run = plan.get(i);
        futures.set(i, pool.submit(() -> simulate(run, progress)));
      }
      List<Outcome> outcomes = new ArrayList<>(plan.size());
      for (Future<Outcome> f : futures) {
        outcomes.add(get(f));
      }
      return outcomes;
    } finally {
      pool.shutdownNow();
    }
  }

  private Outcome simulate(SweepPlan.Run run, LongConsumer progress) {
    Simulator simulator = new Simulator(
        MergePolicies.create(run.policy(), run.options()),
        new UniformFlushes(flushSize), accounting, SweepPlan.EVERY, progress);
    return new Outcome(run, simulator.run(run.flushes()));
  }

  private static Outcome get(Future<Outcome> f) throws InterruptedException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException("sweep run failed", e.getCause());
    }
  }
}
