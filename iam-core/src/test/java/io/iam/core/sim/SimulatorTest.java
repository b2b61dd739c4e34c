package io.iam.core.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.option.OptionValues;
import io.iam.core.policy.Component;
import io.iam.core.policy.MergePlan;
import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.StackSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class SimulatorTest {

  private static MergePolicy policy(String name, int k) {
    return MergePolicies.create(name, Map.of("max-components", Integer.toString(k)));
  }

  private static SimulationResult run(MergePolicy p, FlushStream s, long flushes) {
    return new Simulator(p, s, Accounting.MODEL, 100, null).run(flushes);
  }

  @Test
  void minLatencyOnNineFlushesWritesFifteenUnits() {
    // Worked by hand: flushes 1-3 alone (3), t=4 merges 1+1+1+1 (4), t=5,6 alone (2),
    // t=7 merges 1+1+1 (3), t=8 alone (1), t=9 merges 1+1 (2): 15 units for 9 flushed.
    SimulationResult r = new Simulator(policy("minlatency", 3), new UniformFlushes(1), Accounting.MODEL, 1, null).run(9);
    assertEquals(9, r.bytesFlushed());
    assertEquals(15, r.bytesWritten());
    assertEquals(3, r.merges());
    assertEquals(3, r.maxComponents());
    assertEquals(20.0 / 9, r.averageComponents(), 1e-12); // stacks 1,2,3,1,2,3,2,3,3
  }

  @Test
  void flushThenMergeAccountingWritesEachMergedFlushTwice() {
    SimulationResult r = new Simulator(policy("minlatency", 3), new UniformFlushes(1), Accounting.FLUSH_THEN_MERGE, 1, null).run(9);
    assertEquals(15 + 3, r.bytesWritten()); // the three merges each took in their flush
    assertEquals(2.0, r.writeAmplification(), 1e-12);
  }

  @Test
  void exploringMergeThatLeavesTheFlushAloneWritesTheFlushToo() {
    // Stack 100 10 10 then a flush of 1000: only 10,10 is within ratio, the flush stays alone.
    MergePolicy p = MergePolicies.create("exploring", Map.of("max-components", "10"));
    FlushStream lengths = new FlushStream() {
      private final long[] ls = {100, 10, 10, 1000};
      private int i;

      @Override
      public long nextLength() {
        return ls[i++];
      }

      @Override
      public String describe() {
        return "fixed";
      }
    };
    SimulationResult r = new Simulator(p, lengths, Accounting.MODEL, 1, null).run(4);
    // t=1: 100. t=2: 100,10 out of ratio. t=3: merges 10+10 (20). t=4: flush 1000 stays, nothing merges.
    assertEquals(1120, r.bytesFlushed());
    assertEquals(100 + 10 + 20 + 1000, r.bytesWritten());
  }

  /**
   * A run from the components a store held after 600 flushes makes the decisions the run from an
   * empty store made for flushes 601 to 1,000, for a static policy (binomial) and a size-driven one
   * (exploring), and counts only its own flushes.
   */
  @Test
  void aRunFromAStoresComponentsGoesOnAsTheRunThatMadeThem() {
    for (MergePolicy p : new MergePolicy[] {policy("binomial", 4), policy("exploring", 5)}) {
      List<String> full = new ArrayList<>();
      List<Component> at600 = new ArrayList<>();
      new Simulator(p, new RandomFlushes(1000, 9000, 7), Accounting.FLUSH_THEN_MERGE, 1, null).observe((snap, plan) -> {
        if (snap.flushCount() == 600) {
          for (int i = 0; i < snap.size(); i++) {
            at600.add(snap.get(i));
          }
          applied(at600, plan);
        } else if (snap.flushCount() > 600) {
          full.add(snap.flushCount() + ":" + plan);
        }
      }).run(1000);
      RandomFlushes stream = new RandomFlushes(1000, 9000, 7);
      for (int i = 0; i < 600; i++) {
        stream.nextLength();
      }
      List<String> resumed = new ArrayList<>();
      SimulationResult r = new Simulator(p, stream, Accounting.FLUSH_THEN_MERGE, 1, null).from(at600)
          .observe((snap, plan) -> resumed.add(snap.flushCount() + ":" + plan)).run(400);
      assertEquals(full, resumed, p.name());
      assertEquals(400, r.flushes());
      assertTrue(full.stream().anyMatch(d -> !d.endsWith(MergePlan.none().toString())), "some merges: " + full);
    }
    assertThrows(IllegalArgumentException.class, () -> new Simulator(policy("binomial", 4), new UniformFlushes(1),
        Accounting.MODEL, 1, null).from(List.of(Component.flushed(1, 1, 2),
        Component.flushed(2, 1, 1))));
  }

  /** {@code stack} after {@code plan}: its components from..to replaced by one holding them. */
  private static void applied(List<Component> stack, MergePlan plan) {
    if (plan.isNone()) {
      return;
    }
    long bytes = 0;
    for (int i = plan.from(); i <= plan.to(); i++) {
      bytes += stack.get(i).sizeBytes();
    }
    Component merged = new Component(stack.get(plan.to()).id(), bytes,
        stack.get(plan.from()).firstFlush(), stack.get(plan.to()).lastFlush(), 1, false);
    stack.subList(plan.from(), plan.to() + 1).clear();
    stack.add(plan.from(), merged);
  }

  @Test
  void seededRunsAreDeterministic() {
    for (Supplier<FlushStream> stream : new Supplier[] {
        () -> new RandomFlushes(1000, 9000, 5), () -> new UpdateFlushes(100, 1000, 0.7, 0.99, 5)}) {
      SimulationResult a = run(policy("exploring", 5), stream.get(), 2000);
      SimulationResult b = run(policy("exploring", 5), stream.get(), 2000);
      assertEquals(a.series(), b.series());
      assertEquals(a.bytesWritten(), b.bytesWritten());
    }
    SimulationResult c = run(policy("exploring", 5), new RandomFlushes(1000, 9000, 6), 2000);
    assertNotEquals(run(policy("exploring", 5), new RandomFlushes(1000, 9000, 5), 2000).bytesWritten(), c.bytesWritten());
  }

  @Test
  void updatesShrinkMergesButNotFlushes() {
    // Binomial decides from t alone, so both runs merge the same ranges; with updates a merge
    // writes the union of keys, which is smaller.
    long flushes = 3000;
    SimulationResult uniform = run(policy("binomial", 6), new UniformFlushes(100 * 1024), flushes);
    SimulationResult updates = run(policy("binomial", 6), new UpdateFlushes(100, 1024, 0.7, 0.99, 1), flushes);
    assertEquals(uniform.bytesFlushed(), updates.bytesFlushed());
    assertEquals(uniform.merges(), updates.merges());
    assertTrue(updates.writeAmplification() < uniform.writeAmplification(),
        updates.writeAmplification() + " vs " + uniform.writeAmplification());
    assertTrue(updates.writeAmplification() >= 1.0);
  }

  @Test
  void seriesHasAPointEveryIntervalAndAtTheEnd() {
    SimulationResult r = new Simulator(policy("bigtable", 4), new UniformFlushes(10), Accounting.MODEL, 100, null).run(1050);
    assertEquals(11, r.series().size());
    assertEquals(100, r.series().get(0).flushes());
    assertEquals(1050, r.series().get(10).flushes());
    assertEquals(r.writeAmplification(), r.at(1050).writeAmplification(), 1e-12);
    assertEquals(r.maxComponents(), r.at(1050).maxComponents());
    assertEquals(r.bytesWritten(), r.at(1050).bytesWritten());
    assertEquals(1000 * 10, r.at(1000).bytesFlushed());
    for (int i = 1; i < r.series().size(); i++) {
      SeriesPoint before = r.series().get(i - 1);
      SeriesPoint now = r.series().get(i);
      assertTrue(now.maxComponents() >= Math.max(before.maxComponents(), now.components()), now.toString());
    }
    assertThrows(IllegalArgumentException.class, () -> r.at(150));
  }

  @Test
  void theObserverSeesEveryDecisionBeforeItIsApplied() {
    long[] seen = {0};
    new Simulator(policy("minlatency", 3), new UniformFlushes(1), Accounting.MODEL, 9, null)
        .observe((snapshot, plan) -> {
          seen[0]++;
          assertEquals(seen[0], snapshot.flushCount());
          // the newest component is the flush just made, not yet merged
          assertEquals(snapshot.flushCount(), snapshot.get(snapshot.size() - 1).firstFlush());
        })
        .run(9);
    assertEquals(9, seen[0]);
  }

  @Test
  void progressIsReportedInFull() {
    long[] total = {0};
    new Simulator(policy("binomial", 4), new UniformFlushes(1), Accounting.MODEL, 1000, n -> total[0] += n).run(10_001);
    assertEquals(10_001, total[0]);
  }

  @Test
  void aPolicyThatPlansOutsideTheStackFailsTheRun() {
    MergePolicy rogue = new MergePolicy() {
      @Override
      public String name() {
        return "rogue";
      }

      @Override
      public OptionValues options() {
        return MergePolicies.descriptor("constant").options().defaults();
      }

      @Override
      public int maxComponents() {
        return 1;
      }

      @Override
      public MergePlan plan(StackSnapshot s) {
        return MergePlan.merge(0, s.size());
      }
    };
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> new Simulator(rogue, new UniformFlushes(1), Accounting.MODEL, 1, null).run(3));
    assertTrue(e.getMessage().contains("rogue"), e.getMessage());
  }

  @Test
  void unionOfSortedKeySets() {
    assertArrayEquals(new int[] {1, 2, 3, 5, 6}, Simulator.union(new int[] {1, 3, 5}, new int[] {2, 3, 6}));
    assertArrayEquals(new int[] {4}, Simulator.union(new int[] {}, new int[] {4}));
  }

  @Test
  void updateFlushesHoldDistinctSortedKeys() {
    UpdateFlushes s = new UpdateFlushes(500, 100, 0.9, 0.99, 3);
    for (int f = 0; f < 50; f++) {
      assertEquals(500 * 100, s.nextLength());
      int[] keys = s.lastKeys();
      assertEquals(500, keys.length);
      for (int i = 1; i < keys.length; i++) {
        assertTrue(keys[i - 1] < keys[i], "keys must be sorted and distinct");
      }
    }
    assertTrue(s.writes() > 50 * 500, "updates of keys already in the memtable are absorbed");
    UpdateFlushes inserts = new UpdateFlushes(10, 1, 0.0, 0.99, 3);
    inserts.nextLength();
    inserts.nextLength();
    assertArrayEquals(new int[] {10, 11, 12, 13, 14, 15, 16, 17, 18, 19}, inserts.lastKeys());
  }

  @Test
  void zipfLatestFavoursTheNewestItemAtTheExpectedRate() {
    ZipfLatest zipf = new ZipfLatest(0.99);
    for (int i = 0; i < 1000; i++) {
      zipf.grow();
    }
    double zeta = 0;
    for (int i = 1; i <= 1000; i++) {
      zeta += 1 / Math.pow(i, 0.99);
    }
    SplittableRandom random = new SplittableRandom(9);
    int draws = 200_000;
    int newest = 0;
    int secondNewest = 0;
    for (int i = 0; i < draws; i++) {
      long item = zipf.draw(random);
      assertTrue(item >= 0 && item < 1000);
      newest += item == 999 ? 1 : 0;
      secondNewest += item == 998 ? 1 : 0;
    }
    assertEquals(1 / zeta, (double) newest / draws, 0.01);
    assertEquals(Math.pow(0.5, 0.99) / zeta, (double) secondNewest / draws, 0.01);
  }

  @Test
  void streamsRejectNonsense() {
    assertThrows(IllegalArgumentException.class, () -> new UniformFlushes(0));
    assertThrows(IllegalArgumentException.class, () -> new RandomFlushes(5, 4, 1));
    assertThrows(IllegalArgumentException.class, () -> new UpdateFlushes(10, 10, 1.0, 0.99, 1));
    assertThrows(IllegalArgumentException.class, () -> new UpdateFlushes(10, 10, 0.5, 1.5, 1));
  }
}
