package io.iam.core.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.policy.Component;
import io.iam.core.policy.MergePlan;
import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.StackSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The kernel's leveling and tiering policies, run on a stack of runs with flush-merge (a flush is
 * merged with what the plan names and written once), do exactly what formulas (1)–(6) count, and
 * what the paper's Fig. 2a and Fig. 7 draw for its 32-key example.
 */
public class StackPolicyFormulasTest {

  /** Drives {@code policy} over {@code m} flushes of {@code b} unique entries; returns what it did. */
  public static List<RunMerge> run(MergePolicy policy, long m, int b) {
    return run(policy, m, b, new ArrayList<>());
  }

  /** Like {@link #run(MergePolicy, long, int)}, leaving the final runs in {@code stack}: {first flush, last flush, entries}, oldest first. */
  public static List<RunMerge> run(MergePolicy policy, long m, int b, List<long[]> stack) {
    List<RunMerge> out = new ArrayList<>();
    for (long flush = 1; flush <= m; flush++) {
      List<Component> components = new ArrayList<>();
      for (int i = 0; i < stack.size(); i++) {
        long[] r = stack.get(i);
        components.add(new Component(i, r[2], r[0], r[1], 1, false));
      }
      components.add(Component.flushed(stack.size(), b, flush));
      MergePlan plan = policy.plan(StackSnapshot.of(components, flush));
      int from = plan.isNone() ? stack.size() : plan.from();
      if (!plan.isNone()) {
        assertEquals(stack.size(), plan.to(), "leveling and tiering merge only with the flush");
      }
      List<long[]> inputs = new ArrayList<>(stack.subList(from, stack.size()));
      stack.subList(from, stack.size()).clear();
      long first = inputs.isEmpty() ? flush : inputs.get(0)[0];
      long entries = b + inputs.stream().mapToLong(r -> r[2]).sum();
      stack.add(new long[] {first, flush, entries});
      out.add(new RunMerge(inputs.stream().mapToLong(r -> r[1] - r[0] + 1).toArray(),
          inputs.stream().mapToLong(r -> r[2]).toArray(), flush - first + 1, entries));
    }
    return out;
  }

  public static MergePolicy policy(LsmMergeSimulator.Style style, int t) {
    String name = style == LsmMergeSimulator.Style.LEVELED ? "leveling" : "tiering";
    return MergePolicies.descriptor(name).create(Map.of("size-ratio", String.valueOf(t)));
  }

  @ParameterizedTest(name = "{0} N={1} B={2} T={3}")
  @CsvSource({"LEVELED,32,4,3", "TIERED,32,4,3", "LEVELED,1000,8,2", "TIERED,1000,8,2", "LEVELED,5000,10,10",
      "TIERED,5000,10,10", "LEVELED,12345,16,3", "TIERED,12345,16,3", "LEVELED,4096,4,4", "TIERED,4096,4,4"})
  void policiesDoWhatTheFormulasCount(LsmMergeSimulator.Style style, long n, int b, int t) {
    List<RunMerge> did = run(policy(style, t), n / b, b);
    RunLevelAccounting acc = new RunLevelAccounting(t).addAll(did);
    long written = did.stream().mapToLong(RunMerge::outputEntries).sum();
    FormulaCheck.assertMatches(style, acc, written, n, b, t);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"LEVELED", "TIERED"})
  void readsAndMergesAgreeWithTheSimulatorLevelByLevel(LsmMergeSimulator.Style style) {
    int b = 4;
    int t = 3;
    long n = 4 * 200;
    RunLevelAccounting acc = new RunLevelAccounting(t).addAll(run(policy(style, t), n / b, b));
    LsmMergeSimulator sim = new LsmMergeSimulator(style, b, t, 1);
    for (long i = 0; i < n; i++) {
      sim.add(i);
    }
    assertTrue(sim.depth() >= 3);
    for (int i = 1; i <= sim.depth(); i++) {
      assertEquals(sim.level(i).arrivals(), acc.level(i).arrivals(), "arrivals at " + i);
      assertEquals(sim.level(i).kept(), acc.level(i).kept(), "kept at " + i);
      assertEquals(sim.level(i).merges(), acc.level(i).merges(), "merges at " + i);
      assertEquals(sim.level(i).readEntries(), acc.level(i).readEntries(), "reads at " + i);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"LEVELED,'4,8,12,4,8,24,4,8', 6", "TIERED,'4,4,12,4,4,12,4,4', 2"})
  void thePapersExampleRunSizesAndMergeCounts(LsmMergeSimulator.Style style, String sizes, int merges) {
    // Fig. 2a / Fig. 7: 32 keys, B = 4, T = 3; the size of the run each flush writes, and Table 1's merges.
    List<RunMerge> did = run(policy(style, 3), 8, 4);
    assertEquals(sizes, String.join(",", did.stream().map(r -> String.valueOf(r.outputEntries())).toList()));
    RunLevelAccounting acc = new RunLevelAccounting(3).addAll(did);
    assertEquals(merges, acc.level(1).merges() + acc.level(2).merges() + acc.level(3).merges(), "Table 1's merges");
  }
}
