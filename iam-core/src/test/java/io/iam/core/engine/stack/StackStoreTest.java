package io.iam.core.engine.stack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.cost.FormulaCheck;
import io.iam.core.cost.LsmMergeSimulator;
import io.iam.core.cost.RunLevelAccounting;
import io.iam.core.cost.RunMerge;
import io.iam.core.cost.StackPolicyFormulasTest;
import io.iam.core.engine.IamStore;
import io.iam.core.engine.StoreInternals;
import io.iam.core.engine.TestStores;
import io.iam.core.engine.StoreOptions;
import io.iam.core.option.InvalidOptionsException;
import io.iam.core.manifest.FileMeta;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * tree=stack: the engine's own record of its flushes and merges, read from its files' metadata,
 * against the Min-Max paper's formulas (1)–(6) for leveled and tiered LSM trees; the policy's
 * shape across a restart; reads through the runs.
 */
class StackStoreTest {

  @TempDir
  Path dir;

  static byte[] key(long k) {
    return ByteBuffer.allocate(8).putLong(k).array();
  }

  /** The policy's executor of {@code store}, a tree=stack store. */
  static StackEngine engine(IamStore store) {
    return ((StackStoreTree) StoreInternals.tree(store)).engine();
  }

  static IamStore open(Path dir, String policy, int t) throws Exception {
    return IamStore.open(dir, StoreOptions.parse(Map.of("tree", "stack", "stack-policy", policy,
        "stack-size-ratio", String.valueOf(t))));
  }

  /** Unique keys in a shuffled order; a flush every {@code b} of them, as the formulas' buffer. */
  static List<Long> keys(long n) {
    List<Long> keys = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      keys.add(i * 7);
    }
    Collections.shuffle(keys, new Random(n));
    return keys;
  }

  @ParameterizedTest(name = "{0} N={1} B={2} T={3}")
  @CsvSource({"LEVELED,32,4,3", "TIERED,32,4,3", "LEVELED,2400,8,3", "TIERED,2400,8,3", "LEVELED,2048,4,4",
      "TIERED,2048,4,4", "TIERED,1000,10,2"})
  void theEnginesCountersMatchFormulas1To6(LsmMergeSimulator.Style style, long n, int b, int t) throws Exception {
    String policy = style == LsmMergeSimulator.Style.LEVELED ? "leveling" : "tiering";
    List<Long> keys = keys(n);
    try (IamStore store = open(dir, policy, t)) {
      for (int i = 0; i < keys.size(); i++) {
        store.put(key(keys.get(i)), ("v" + keys.get(i)).getBytes(StandardCharsets.UTF_8));
        if ((i + 1) % b == 0) {
          store.flushAndSettle();
        }
      }
      List<RunMerge> did = engine(store).history();
      assertEquals(n / b, did.size(), "one record per flush");
      long written = store.statistics().asMap().get("stack.entries-written").longValue();
      assertEquals(did.stream().mapToLong(RunMerge::outputEntries).sum(), written);
      assertEquals(did.stream().mapToLong(RunMerge::readEntries).sum(),
          store.statistics().asMap().get("stack.entries-read").longValue());
      FormulaCheck.assertMatches(style, new RunLevelAccounting(t).addAll(did), written, n, b, t);
      // The tail of fewer than B keys is still in the memtable; every key reads back.
      for (long k : keys) {
        assertArrayEquals(("v" + k).getBytes(StandardCharsets.UTF_8), store.get(key(k)), "key " + k);
      }
      assertNull(store.get(key(3)));
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"leveling", "tiering", "binomial"})
  void theStackKeepsItsShapeAcrossARestart(String policy) throws Exception {
    int b = 5;
    int m = 60;
    List<long[]> expected = new ArrayList<>();
    if (!policy.equals("binomial")) {
      StackPolicyFormulasTest.run(StackPolicyFormulasTest.policy(policy.equals("leveling")
          ? LsmMergeSimulator.Style.LEVELED : LsmMergeSimulator.Style.TIERED, 3), m, b, expected);
    }
    long k = 0;
    for (int round = 0; round < 3; round++) { // a restart after every 20 flushes
      try (IamStore store = open(dir, policy, 3)) {
        for (int f = 0; f < m / 3; f++) {
          for (int i = 0; i < b; i++, k++) {
            store.put(key(k), key(k));
          }
          store.flushAndSettle();
        }
      }
    }
    try (IamStore store = open(dir, policy, 3)) {
      List<FileMeta> runs = new ArrayList<>(store.levels().get(0));
      Collections.reverse(runs);
      if (policy.equals("binomial")) {
        assertTrue(runs.size() <= engine(store).policy().maxComponents(), "binomial keeps at most k runs: " + runs);
      } else {
        assertEquals(expected.stream().map(r -> r[2]).toList(), runs.stream().map(FileMeta::entries).toList(),
            "the runs the pure policy leaves after " + m + " flushes");
      }
      assertEquals(m * b, runs.stream().mapToLong(FileMeta::entries).sum());
      for (long i = 0; i < k; i++) {
        assertArrayEquals(key(i), store.get(key(i)), "key " + i);
      }
    }
  }

  @Test
  void updatesAndDeletesReadTheNewestVersionThroughTheRuns() throws Exception {
    try (IamStore store = open(dir, "tiering", 2)) {
      for (int round = 0; round < 12; round++) {
        for (long i = 0; i < 50; i++) {
          if ((i + round) % 7 == 0) {
            store.delete(key(i));
          } else {
            store.put(key(i), ("r" + round).getBytes(StandardCharsets.UTF_8));
          }
        }
        store.flushAndSettle();
        for (long i = 0; i < 50; i++) {
          byte[] v = store.get(key(i));
          if ((i + round) % 7 == 0) {
            assertNull(v, "round " + round + " key " + i);
          } else {
            assertArrayEquals(("r" + round).getBytes(StandardCharsets.UTF_8), v, "round " + round + " key " + i);
          }
        }
      }
      assertTrue(store.statistics().asMap().get("stack.merges").longValue() > 0);
      assertTrue(store.describe().contains("stack: policy tiering"), store.describe());
      assertTrue(store.verify() > 0);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"exploring", "size-tiered", "bigtable", "constant", "minlatency", "iam-stack", "prefix"})
  void everyPolicyKeepsEveryKeyReadable(String policy) throws Exception {
    java.util.TreeMap<Long, Integer> model = new java.util.TreeMap<>();
    Random random = new Random(policy.hashCode());
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(Map.of("tree", "stack", "stack-policy", policy,
        "stack-max-components", "3", "memtable-size", "64KiB")))) {
      for (int flush = 0; flush < 40; flush++) {
        for (int i = 0; i < 20 + random.nextInt(200); i++) { // flushes of different sizes
          long k = random.nextInt(3000);
          int v = random.nextInt();
          store.put(key(k), ByteBuffer.allocate(4).putInt(v).array());
          model.put(k, v);
        }
        store.flushAndSettle();
      }
      List<RunMerge> did = engine(store).history();
      assertTrue(did.stream().anyMatch(r -> r.inputFlushes().length > 0), policy + " merged nothing");
      long flushes = store.statistics().asMap().get("flush.count").longValue();
      if (policy.equals("exploring")) { // it picks windows without the newest run: flushed first, then merged
        assertTrue(did.size() > flushes, "the merge of older runs ran: " + did.size() + " steps for " + flushes + " flushes");
      }
      for (var e : model.entrySet()) {
        assertArrayEquals(ByteBuffer.allocate(4).putInt(e.getValue()).array(), store.get(key(e.getKey())), "key " + e.getKey());
      }
      assertEquals(model.size(), store.verify() > 0 ? TestStores.countKeys(store) : -1);
    }
  }

  /**
   * The kernel's simulator, run on the same policy and flushes, predicts exactly what the engine
   * writes and merges, for the policies that decide from flush counts only (the engine's sizes are
   * file bytes, the simulator's are entries here, so size-based policies may decide differently).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"constant", "minlatency", "binomial", "leveling", "tiering"})
  void theSimulatorPredictsTheEnginesWritesAndMerges(String policy) throws Exception {
    int b = 6;
    int flushes = 70;
    Map<String, String> options = Map.of("tree", "stack", "stack-policy", policy, "stack-size-ratio", "3",
        "stack-max-components", "3");
    io.iam.core.sim.SimulationResult predicted;
    try (IamStore store = IamStore.open(dir, StoreOptions.parse(options))) {
      predicted = new io.iam.core.sim.Simulator(engine(store).policy(), new io.iam.core.sim.UniformFlushes(b),
          io.iam.core.sim.Accounting.MODEL, flushes, n -> { }).run(flushes);
      long k = 0;
      for (int f = 0; f < flushes; f++) {
        for (int i = 0; i < b; i++, k++) {
          store.put(key(k * 31 % 100_003), key(k));
        }
        store.flushAndSettle();
      }
      Map<String, Number> stats = store.statistics().asMap();
      assertEquals(predicted.bytesWritten(), stats.get("stack.entries-written").longValue(), "entries written");
      assertEquals(predicted.merges(), stats.get("stack.merges").longValue(), "merges");
      assertEquals(predicted.series().get(predicted.series().size() - 1).components(), store.levels().get(0).size(),
          "runs at the end");
      assertTrue(predicted.merges() > 0);
    }
  }

  @Test
  void badPolicyOptionsAreNamed() {
    InvalidOptionsException e = assertThrows(InvalidOptionsException.class,
        () -> StoreOptions.parse(Map.of("tree", "stack", "stack-policy", "nope")));
    assertTrue(e.getMessage().contains("stack-policy") && e.getMessage().contains("tiering"), e.getMessage());
  }
}
