package io.iam.core.tree.iam;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TreeSimulatorTest {

  private static final int T = 10;
  private static final long C = 100; // a memtable and a node hold 100 one-byte records
  private static final int FLUSHES = 1000;

  private static TreeSimResult run(Mode mode) {
    return new TreeSimulator(T, C, 1, mode, 42).run(FLUSHES);
  }

  @Test
  void invariantsHoldAfterEveryStepForLsa() {
    checkInvariants(Mode.lsa(), 400);
  }

  @Test
  void invariantsHoldAfterEveryStepForIam() {
    checkInvariants(Mode.iam(2, 2), 400);
  }

  @Test
  void invariantsHoldAfterEveryStepForLsmMerge() {
    checkInvariants(Mode.lsmMerge(), 250);
  }

  private static void checkInvariants(Mode mode, int steps) {
    TreeSimulator sim = new TreeSimulator(T, C, 1, mode, 7);
    List<long[]> batches = new ArrayList<>();
    int maxChildren = 0;
    for (int step = 1; step <= steps; step++) {
      sim.step();
      batches.add(sim.lastBatch());
      TreeShape shape = sim.shape(); // its constructor rejects unsorted or overlapping levels
      int n = shape.depth();
      long stored = 0;
      for (int i = 1; i <= n; i++) {
        List<Node> level = shape.level(i);
        for (int j = 1; j < level.size(); j++) {
          assertTrue(level.get(j - 1).hi() < level.get(j).lo(), "level " + i + " disjoint and sorted");
        }
        if (i < n) {
          assertTrue(level.size() <= shape.threshold(i), "N_" + i + " = " + level.size() + " after combines");
        } else {
          assertTrue(level.size() < shape.threshold(i), "leaf level below t^n");
        }
        for (Node node : level) {
          long[] keys = sim.keysOf(node);
          assertEquals(keys.length, node.bytes(), "bytes track records");
          assertTrue(keys.length == 0 || (keys[0] >= node.lo() && keys[keys.length - 1] <= node.hi()),
              "records inside the node's range: " + node);
          assertTrue(node.sequences() <= Math.max(1, keys.length), "sequences");
          stored += keys.length;
          if (i < n) {
            assertTrue(node.bytes() < C, "no internal node is left full: " + node);
            int children = shape.childCount(node);
            maxChildren = Math.max(maxChildren, children);
            if (children >= 2 * T) {
              // §4.2.2: a node splits when it is full and covers >= 2t children, so such a node
              // is never flushed into >= 2t children: when it fills, its plan is a split.
              assertEquals(FlushPlan.Kind.SPLIT, FlushPlanner.plan(shape, node, mode).kind());
            }
          }
        }
      }
      assertEquals((long) step * C, stored, "every record is somewhere");
      if (step % 50 == 0 || step == steps) {
        for (long[] batch : batches) {
          for (long key : batch) {
            assertTrue(coveredSomewhere(sim, shape, key), "key " + key + " covered");
          }
        }
      }
    }
    assertTrue(sim.shape().depth() >= 3, "the run grows the tree");
    // Before the §4.2.1 range adjustment these runs reached 36 (LSA, IAM) and 23 (LSM_MERGE);
    // with it, 26 and 19 (and at most 26 over seeds 1, 2, 3, 42, 99 too).
    assertTrue(maxChildren < 3 * T, "range adjustment and splits keep child counts below 3t: " + maxChildren);
  }

  /** Whether a node whose range covers {@code key} stores it. */
  private static boolean coveredSomewhere(TreeSimulator sim, TreeShape shape, long key) {
    for (int i = 1; i <= shape.depth(); i++) {
      for (Node node : shape.overlapping(i, key, key)) {
        if (Arrays.binarySearch(sim.keysOf(node), key) >= 0) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void lsaAppendsSoInternalLevelsWriteAboutOnce() {
    TreeSimResult r = run(Mode.lsa());
    assertTrue(r.depth() >= 3, "depth " + r.depth());
    for (int i = 1; i < r.depth(); i++) {
      assertTrue(r.writeAmplification(i) < 1.3, "L" + i + " wa " + r.writeAmplification(i));
      assertTrue(r.writeAmplification(i) > 0.5, "L" + i + " holds a share of the data");
    }
    // With uniform keys the range adjustment alone keeps every node below 2t children: since
    // boundaries no longer cut through a child, no node splits (before, 12 did in this run).
    assertEquals(0, r.splits(), "splits");
    assertTrue(r.combines() > 0, "combines happen");
    assertTrue(r.meanSequences()[1] > 2, "LSA nodes hold several sequences");
  }

  @Test
  void iamWithEveryLevelAppendingIsLsa() {
    TreeSimResult lsa = run(Mode.lsa());
    TreeSimResult iam = run(Mode.iam(lsa.depth() + 1, 1));
    assertArrayEquals(lsa.bytesWritten(), iam.bytesWritten());
    assertArrayEquals(lsa.nodes(), iam.nodes());
  }

  @Test
  void iamSitsBetweenLsaAndLsm() {
    double lsa = run(Mode.lsa()).totalWriteAmplification();
    double lsm = run(Mode.lsmMerge()).totalWriteAmplification();
    for (Mode mode : List.of(Mode.iam(2, 1), Mode.iam(2, 3), Mode.iam(3, 2))) {
      double iam = run(mode).totalWriteAmplification();
      assertTrue(lsa < iam && iam < lsm, mode + ": " + lsa + " < " + iam + " < " + lsm);
    }
    assertTrue(lsm > 2 * lsa, "merging everywhere costs much more: " + lsm + " vs " + lsa);
  }

  @Test
  void largerKLowersTheMixedLevelsWriteAmplificationAsInTableThree() {
    TreeSimResult k1 = run(Mode.iam(2, 1));
    TreeSimResult k2 = run(Mode.iam(2, 2));
    TreeSimResult k3 = run(Mode.iam(2, 3));
    assertTrue(k1.writeAmplification(2) > k2.writeAmplification(2), k1.writeAmplification(2) + " > " + k2.writeAmplification(2));
    assertTrue(k2.writeAmplification(2) > k3.writeAmplification(2), k2.writeAmplification(2) + " > " + k3.writeAmplification(2));
    assertTrue(k1.totalWriteAmplification() > k2.totalWriteAmplification());
    assertTrue(k2.totalWriteAmplification() > k3.totalWriteAmplification());
    // The appending level above is untouched, and the mixed level caps sequences at k.
    assertEquals(k1.writeAmplification(1), k3.writeAmplification(1));
    assertEquals(1, k1.maxSequences()[1]);
    assertEquals(3, k3.maxSequences()[1]);
  }

  @Test
  void internalLevelsKeepTToTheINodesAsMovesLeaveTheirRanges() {
    // §4.2.1: a move adds a node below and leaves N_i as it was (the node stays, emptied). With
    // moves taking their node away, these runs ended with 8, 93 and 825 nodes on levels 1–3.
    for (Mode mode : List.of(Mode.lsa(), Mode.iam(2, 2), Mode.lsmMerge())) {
      TreeSimResult r = run(mode);
      assertTrue(r.depth() >= 4, mode + " depth " + r.depth());
      assertTrue(r.moves() > 100, mode + " moves " + r.moves());
      for (int i = 1; i < r.depth(); i++) {
        assertEquals((int) Math.pow(T, i), r.nodes()[i - 1], mode + " N_" + i);
      }
    }
  }

  @Test
  void sameSeedSameRun() {
    TreeSimResult a = new TreeSimulator(T, C, 1, Mode.iam(2, 2), 99).run(300);
    TreeSimResult b = new TreeSimulator(T, C, 1, Mode.iam(2, 2), 99).run(300);
    assertArrayEquals(a.bytesWritten(), b.bytesWritten());
    assertEquals(a.splits(), b.splits());
    assertEquals(300 * C, a.bytesInserted());
  }

  @Test
  void firstFlushIntoAnEmptyTreeMoves() {
    // The memtable overlaps nothing below, so it moves into L1, written once.
    TreeSimulator sim = new TreeSimulator(T, C, 1, Mode.lsmMerge(), 1);
    sim.step();
    TreeSimResult r = sim.result();
    assertEquals(1, r.moves());
    assertEquals(C, r.bytesWritten()[0]);
    assertEquals(1, r.nodes()[0]);
  }

  @Test
  void aFullLeafIsCutWhereTheEnginesWritersCutIt() {
    // C_t = 10 one-byte records. A full leaf of 10 takes 3 more: the 13 are cut, in key order,
    // into leaves that close once they hold C_t/5 = 2 records, the last taking the rest, as the
    // engine's TableWriter and HBase's NodeRouter cut (an even split would put the short leaf first).
    TreeSimulator sim = new TreeSimulator(T, 10, 1, Mode.lsa(), 1);
    sim.flush(new long[] {0, 2, 4, 6, 8, 10, 12, 14, 16, 18});
    sim.flush(new long[] {5, 1, 3});
    List<Node> leaves = sim.shape().level(1);
    assertEquals(List.of(2L, 2L, 2L, 2L, 2L, 2L, 1L), leaves.stream().map(Node::bytes).toList());
    assertArrayEquals(new long[] {0, 1}, sim.keysOf(leaves.get(0)));
    assertArrayEquals(new long[] {6, 8}, sim.keysOf(leaves.get(3)));
    assertArrayEquals(new long[] {18}, sim.keysOf(leaves.get(6)));
    assertEquals(0, leaves.get(0).lo());
    assertEquals(18, leaves.get(6).hi());
  }

  @Test
  void aStepIsTheFlushOfItsBatch() {
    TreeSimulator stepped = new TreeSimulator(T, C, 1, Mode.iam(2, 2), 5);
    TreeSimulator flushed = new TreeSimulator(T, C, 1, Mode.iam(2, 2), 6);
    for (int i = 0; i < 200; i++) {
      stepped.step();
      flushed.flush(stepped.lastBatch());
    }
    assertEquals(stepped.shape().depth(), flushed.shape().depth());
    for (int level = 1; level <= stepped.shape().depth(); level++) {
      assertEquals(stepped.shape().level(level), flushed.shape().level(level), "L" + level);
    }
    assertArrayEquals(stepped.result().bytesWritten(), flushed.result().bytesWritten());
  }
}
