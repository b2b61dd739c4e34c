package io.iam.bench.compare;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The runs of a comparison and their order: workload-major, engine-minor, so that every engine of a
 * workload runs close in time to the others; the whole sweep {@code repeats} times, with the engine
 * order reversed on odd repeats, so that no engine always runs first (on a cold machine) or right
 * after a given other one.
 *
 * @param engines the engines, in the order given
 * @param workloads the workloads, in the order given
 * @param baseline the engine whose throughput the others' is normalized to, one of {@code engines}
 * @param budget what every run gets, the same for every engine
 * @param repeats how many times the whole sweep runs, at least 1
 */
record ComparePlan(List<String> engines, List<String> workloads, String baseline, Budget budget, int repeats) {

  /** Workload G's scans read up to 10,000 records each: it runs this many times fewer operations by default. */
  static final int LONG_SCAN_DIVISOR = 40;

  ComparePlan {
    engines = List.copyOf(engines);
    workloads = List.copyOf(workloads);
  }

  /**
   * The same data and budgets for every engine.
   *
   * @param gOperations operations of workload G, whose scans are long
   * @param policy {@code --policy} for the engines that take a merge policy, or null
   * @param k {@code --k} for those engines, or null
   * @param options {@code -o} options, given to every engine
   */
  record Budget(long records, long operations, long gOperations, int threads, long memtableBytes, long cacheBytes,
      String policy, Integer k, Map<String, String> options) {

    Budget {
      options = new LinkedHashMap<>(options);
    }

    long operationsOf(String workload) {
      return workload.equals("g") ? gOperations : operations;
    }
  }

  /**
   * One child run.
   *
   * @param index 1 for the first run
   * @param repeat 1 for the first sweep
   * @param args the arguments of its {@code iam} command, {@code ycsb} (or {@code load}) first
   */
  record Run(int index, int repeat, String engine, String workload, List<String> args) {}

  /**
   * Every run in order, with the arguments of its {@code iam ycsb} command.
   *
   * @param takesPolicy whether an engine takes {@code --policy} and {@code --k} (HBase, AsterixDB)
   */
  List<Run> runs(Predicate<String> takesPolicy) {
    List<Run> runs = new ArrayList<>();
    for (int r = 0; r < repeats; r++) {
      List<String> order = new ArrayList<>(engines);
      if (r % 2 == 1) {
        Collections.reverse(order);
      }
      for (String w : workloads) {
        for (String e : order) {
          runs.add(new Run(runs.size() + 1, r + 1, e, w, args(e, w, takesPolicy.test(e))));
        }
      }
    }
    return runs;
  }

  /**
   * The child's arguments: {@code ycsb --engine E --workload W ... --json --no-progress}, or for a
   * {@link PaperTest} its {@code load} command.
   */
  List<String> args(String engine, String workload, boolean takesPolicy) {
    Optional<PaperTest> paper = PaperTest.named(workload);
    if (paper.isPresent()) {
      return paper.get().args(engine, budget, takesPolicy);
    }
    List<String> a = new ArrayList<>(List.of("ycsb", "--engine", engine, "--workload", workload,
        "--records", Long.toString(budget.records()),
        "--operations", Long.toString(budget.operationsOf(workload)),
        "--threads", Integer.toString(budget.threads()),
        "--memtable", Long.toString(budget.memtableBytes()),
        "--cache", Long.toString(budget.cacheBytes())));
    if (takesPolicy && budget.policy() != null) {
      a.addAll(List.of("--policy", budget.policy()));
    }
    if (takesPolicy && budget.k() != null) {
      a.addAll(List.of("--k", Integer.toString(budget.k())));
    }
    budget.options().forEach((key, value) -> a.addAll(List.of("-o", key + "=" + value)));
    a.addAll(List.of("--json", "--no-progress"));
    return a;
  }
}
