package io.iam.core.minmax;

import io.iam.core.cost.LsmCosts;
import io.iam.core.cost.LsmMergeSimulator;
import io.iam.core.cost.LsmCostFormulas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Golden test: the paper's worked example (§2, Fig. 1, Fig. 2a/2b, Fig. 7, Tables 1 and 2): 32
 * keys, buffer B = 4, window W = 2, ratio T = 3, and pages of P = 2 entries (the paper sets the
 * window to the I/O size, so a bucket is one write).
 */
class MinMaxPaperExampleTest {

  /** Fig. 1, in arrival order 1 … 32. */
  static final long[] D = {
      9, 10, 3, 18, 1, 13, 20, 24, 12, 4, 2, 7, 19, 30, 26, 14,
      1, 29, 8, 4, 15, 25, 18, 9, 2, 8, 11, 6, 16, 5, 12, 28};

  /** Fig. 2b, last column: the bucket written at each eviction. */
  static final long[][] BUCKETS = {
      {9, 10}, {1, 3}, {18, 20}, {12, 13}, {2, 4}, {19, 24}, {26, 30}, {1, 7},
      {4, 8}, {14, 15}, {25, 29}, {8, 9}, {2, 6}, {16, 18}, {11, 12}};

  /** Fig. 2b, "Buffer after sort": the full cache just before each eviction. */
  static final long[][] FULL = {
      {3, 9, 10, 18}, {1, 3, 13, 18}, {13, 18, 20, 24}, {4, 12, 13, 24}, {2, 4, 7, 24},
      {7, 19, 24, 30}, {7, 14, 26, 30}, {1, 7, 14, 29}, {4, 8, 14, 29}, {14, 15, 25, 29},
      {9, 18, 25, 29}, {2, 8, 9, 18}, {2, 6, 11, 18}, {5, 11, 16, 18}, {5, 11, 12, 28}};

  /** Fig. 2b, "Buffer after evict". */
  static final long[][] AFTER = {
      {3, 18}, {13, 18}, {13, 24}, {4, 24}, {7, 24}, {7, 30}, {7, 14}, {14, 29}, {14, 29},
      {25, 29}, {9, 18}, {2, 18}, {11, 18}, {5, 11}, {5, 28}};

  private static long[] cacheKeys(MinMaxTree tree) {
    return tree.buffer().entries().keySet().stream().mapToLong(Long::longValue).toArray();
  }

  @Test
  void minMaxWritesTheBucketsOfFigure2b() {
    MinMaxTree tree = new MinMaxTree(4, 2);
    List<long[]> written = new ArrayList<>();
    int row = 0;
    for (int i = 0; i < D.length; i++) {
      List<Bucket> out = tree.put(D[i], i + 1);
      for (Bucket b : out) {
        written.add(b.keys());
        assertArrayEquals(AFTER[row], cacheKeys(tree), "buffer after evict, row " + (row + 1));
        long[] full = new long[4];
        System.arraycopy(b.keys(), 0, full, 0, 2);
        System.arraycopy(AFTER[row], 0, full, 2, 2);
        Arrays.sort(full);
        assertArrayEquals(FULL[row], full, "buffer after sort, row " + (row + 1));
        row++;
      }
    }
    assertEquals(BUCKETS.length, written.size());
    for (int i = 0; i < BUCKETS.length; i++) {
      assertArrayEquals(BUCKETS[i], written.get(i), "bucket " + (i + 1));
    }

    // Table 2, Min-Max column: buckets a range query must read (before the final flush).
    assertEquals(2, tree.index().overlapping(19L, 20L).size(), "Q1 [19, 20]");
    assertEquals(2, tree.index().overlapping(11L, 12L).size(), "Q2 [11, 12]");
    assertEquals(4, tree.index().overlapping(14L, 20L).size(), "Q3 [14, 20]");

    // End of stream: the last two keys become the 16th bucket (Table 1: 32 / 2 = 16 writes).
    List<Bucket> tail = tree.flush();
    assertEquals(1, tail.size());
    assertArrayEquals(new long[] {5, 28}, tail.get(0).keys());
    assertEquals(new LsmCosts(0, 16, 0, 32, 0), tree.costs(2), "Table 1, Min-Max column");
  }

  @Test
  void leveledLsmFollowsFigure2aAndTable1() {
    LsmMergeSimulator sim = new LsmMergeSimulator(LsmMergeSimulator.Style.LEVELED, 4, 3, 2);
    feed(sim, 0, 12);
    assertEquals(0, sim.runs(1).size(), "row 2: L1 fills and moves to L2");
    assertArrayEquals(new long[] {1, 2, 3, 4, 7, 9, 10, 12, 13, 18, 20, 24}, sim.runs(2).get(0));
    feed(sim, 12, 24);
    assertEquals(0, sim.runs(1).size(), "row 4: L0 + L1 + L2 in one run");
    assertArrayEquals(new long[] {1, 1, 2, 3, 4, 4, 7, 8, 9, 9, 10, 12, 13, 14, 15, 18, 18, 19, 20, 24,
        25, 26, 29, 30}, sim.runs(2).get(0));
    feed(sim, 24, 32);
    assertArrayEquals(new long[] {2, 5, 6, 8, 11, 12, 16, 28}, sim.runs(1).get(0), "row 5");
    // Table 1, Leveled-LSM: 6 merges, 36 write I/Os, 20 read I/Os (pages of 2 entries).
    assertEquals(new LsmCosts(6, 36, 20, 72, 40), sim.costs());
  }

  @Test
  void tieredLsmFollowsFigure7AndTable1() {
    LsmMergeSimulator sim = new LsmMergeSimulator(LsmMergeSimulator.Style.TIERED, 4, 3, 2);
    feed(sim, 0, 32);
    List<long[]> l1 = sim.runs(1);
    assertEquals(2, l1.size());
    assertArrayEquals(new long[] {2, 6, 8, 11}, l1.get(0));
    assertArrayEquals(new long[] {5, 12, 16, 28}, l1.get(1));
    List<long[]> l2 = sim.runs(2);
    assertEquals(2, l2.size());
    assertArrayEquals(new long[] {1, 2, 3, 4, 7, 9, 10, 12, 13, 18, 20, 24}, l2.get(0));
    assertArrayEquals(new long[] {1, 4, 8, 9, 14, 15, 18, 19, 25, 26, 29, 30}, l2.get(1));
    // Table 1, Tiered-LSM: 2 merges and 28 write I/Os. Reads: §2's text says 8 I/Os, which the
    // simulation gives; Table 1 prints 16, which no count of pages of 2 matches.
    assertEquals(new LsmCosts(2, 28, 8, 56, 16), sim.costs());
  }

  @Test
  void formulasOnTheExample() {
    LsmCostFormulas f = new LsmCostFormulas(32, 4, 3, 2);
    assertEquals(8, f.buffers());
    assertEquals(2, f.levels());
    // As printed (i = 1 … L−1): (1), (2) and (5) give Table 1's / §2's numbers.
    assertEquals(6, f.mergesLeveled());
    assertEquals(2, f.mergesTiered());
    assertEquals(8, f.readsTiered());
    // (3), (4), (6) as printed leave out level L = 2, which the example reaches.
    assertEquals(12, f.writesTiered());
    assertEquals(30, f.writesLeveled());
    assertEquals(14, f.readsLeveled());
    // Summed to L, (6) gives Table 1's 20 leveled reads.
    assertEquals(20, LsmCostFormulas.sum(f.levels(), f::readsLeveled));
    // Table 1's 28 tiered writes = (3) to L (each run written where it stays) + the T-th flush of
    // each fill, which Fig. 7 also writes to level 1 before merging it: 24 + 2 · 2.
    assertEquals(24, LsmCostFormulas.sum(f.levels(), f::writesTiered));
    // Table 1's 36 leveled writes = (4) to L (48) minus the 2 fills of L1 (12 entries = 6 pages
    // each) that Fig. 2a merges straight into L2 instead of writing at L1.
    assertEquals(48, LsmCostFormulas.sum(f.levels(), f::writesLeveled));
  }

  @Test
  void table1InOneRun() {
    CostComparison c = CostComparison.of(D, 4, 2, 3, 2);
    // # of merges 6 / 2 / 0; write I/Os 36 / 28 / 16; read I/Os 20 / 8 (Table 1: 16, §2: 8) / 0.
    assertEquals(List.of(6L, 2L, 0L), List.of(c.leveled().merges(), c.tiered().merges(), c.minMax().merges()));
    assertEquals(List.of(36L, 28L, 16L), List.of(c.leveled().writeIos(), c.tiered().writeIos(), c.minMax().writeIos()));
    assertEquals(List.of(20L, 8L, 0L), List.of(c.leveled().readIos(), c.tiered().readIos(), c.minMax().readIos()));
  }

  private static void feed(LsmMergeSimulator sim, int from, int to) {
    for (int i = from; i < to; i++) {
      sim.add(D[i]);
    }
  }
}
