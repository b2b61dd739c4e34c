package io.iam.core.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Formulas (1)–(6) against the simulator, term by term (level by level) and in total, on several
 * parameter sets.
 */
class LsmCostFormulasTest {

  private static LsmMergeSimulator run(LsmMergeSimulator.Style style, long n, int b, int t, int p) {
    LsmMergeSimulator sim = new LsmMergeSimulator(style, b, t, p);
    Random rnd = new Random(n * 31 + b * 7L + t);
    for (long i = 0; i < n; i++) {
      sim.add(rnd.nextInt(1_000_000));
    }
    return sim;
  }

  @ParameterizedTest(name = "N={0} B={1} T={2} P={3}")
  @CsvSource({"32,4,3,2", "200,4,3,2", "1000,8,2,4", "777,2,4,1", "5000,10,10,5", "4096,4,4,2", "12345,16,3,8"})
  void everyTermEqualsTheSimulatorsCounterForItsLevel(long n, int b, int t, int p) {
    LsmCostFormulas f = new LsmCostFormulas(n, b, t, p);
    LsmMergeSimulator leveled = run(LsmMergeSimulator.Style.LEVELED, n, b, t, p);
    LsmMergeSimulator tiered = run(LsmMergeSimulator.Style.TIERED, n, b, t, p);
    assertEquals(f.buffers(), leveled.flushes());
    assertEquals(n % b, leveled.unflushed());
    // The data reaches level L exactly: one level deeper than the printed sums go.
    assertEquals(f.levels(), leveled.depth());
    assertEquals(f.levels(), tiered.depth());
    for (int i = 1; i <= f.levels() + 1; i++) {
      String at = "level " + i;
      LsmMergeSimulator.LevelStats lv = leveled.level(i);
      LsmMergeSimulator.LevelStats tr = tiered.level(i);
      assertEquals(f.arrivals(i), lv.arrivals(), at);
      assertEquals(f.arrivals(i), tr.arrivals(), at);
      assertEquals(f.mergesLeveled(i), lv.kept(), at + " (1)");
      assertEquals(f.mergesTiered(i), tr.merges(), at + " (2)");
      assertEquals(f.writesTiered(i), tr.keptEntries() / p, at + " (3)");
      assertEquals(f.writesLeveled(i), lv.outputEntries() / p, at + " (4)");
      assertEquals(f.readsTieredScaled(i), tr.readEntries() / p, at + " (5) scaled");
      assertEquals(f.readsLeveled(i), lv.readEntries() / p, at + " (6)");
    }
    // Totals: (2) is the tiered merge count outright (level L never fills); (6) summed to L is the
    // leveled read I/O outright.
    assertEquals(f.mergesTiered(), tiered.costs().merges());
    assertEquals(LsmCostFormulas.sum(f.levels(), f::readsLeveled), leveled.costs().readIos());
    assertEquals(LsmCostFormulas.sum(f.levels(), f::readsTieredScaled), tiered.costs().readIos());
    // The physical writes differ from (3)/(4) by what the figures do with a level's fills: tiered
    // writes the T-th run before merging it, leveled merges it straight into the next level.
    long tierFillWrites = LsmCostFormulas.sum(f.levels(), i -> f.fills(i) * (b / p) * pow(t, i - 1));
    assertEquals(LsmCostFormulas.sum(f.levels(), f::writesTiered) + tierFillWrites, tiered.costs().writeIos());
    long levelFillWrites = LsmCostFormulas.sum(f.levels(), i -> f.fills(i) * (b / p) * pow(t, i));
    assertEquals(LsmCostFormulas.sum(f.levels(), f::writesLeveled) - levelFillWrites, leveled.costs().writeIos());
  }

  @Test
  void printedFormula5MissesTheRunGrowthOnceLevel2Merges() {
    LsmCostFormulas small = new LsmCostFormulas(32, 4, 3, 2); // M = 8 < T² = 9
    assertEquals(small.readsTiered(), LsmCostFormulas.sum(small.levels() - 1, small::readsTieredScaled));
    // M = 27, L = 4: levels 1, 2, 3 fill 9, 3 and 1 times; a merge reads T−1 = 2 runs of 2, 6, 18 pages.
    LsmCostFormulas big = new LsmCostFormulas(4 * 27, 4, 3, 2);
    assertEquals((9 + 3 + 1) * 2 * 2, big.readsTiered());
    long scaled = 9 * 2 * 2 + 3 * 2 * 6 + 2 * 18;
    assertEquals(scaled, LsmCostFormulas.sum(big.levels() - 1, big::readsTieredScaled));
    long simulated = run(LsmMergeSimulator.Style.TIERED, 108, 4, 3, 2).costs().readIos();
    assertEquals(scaled, simulated);
    assertNotEquals(big.readsTiered(), simulated);
  }

  @Test
  void levelsAndValidation() {
    assertEquals(0, new LsmCostFormulas(3, 4, 3, 2).levels());
    assertEquals(1, new LsmCostFormulas(8, 4, 3, 2).levels());
    assertEquals(3, new LsmCostFormulas(36, 4, 3, 2).levels()); // M = 9 = T²
    assertThrows(IllegalArgumentException.class, () -> new LsmCostFormulas(10, 4, 1, 2));
    assertThrows(IllegalArgumentException.class, () -> new LsmCostFormulas(10, 4, 3, 3));
    assertThrows(IllegalArgumentException.class, () -> new LsmMergeSimulator(LsmMergeSimulator.Style.TIERED, 4, 3, 3));
  }

  private static long pow(int t, int e) {
    long x = 1;
    for (int i = 0; i < e; i++) {
      x *= t;
    }
    return x;
  }
}
