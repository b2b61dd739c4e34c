package io.iam.core.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Checks what a flush-merge stack store recorded against formulas (1)–(6), term by term. Shared by
 * the pure policy test and the engine test, so both hold the store to the same account.
 *
 * <p>A flush-merge store writes each flush once, merged with every run it reaches, at the level
 * where the result stays; the formulas count exactly that for tiering ((3): the T-th run of a level
 * is not written there). For leveling, formula (4) also counts the result at every level it passes
 * through, so the physical writes are (4) minus those fills, as the simulator's are.
 */
public final class FormulaCheck {

  private FormulaCheck() {}

  /**
   * @param recorded what the store did
   * @param written entries the store wrote in all (its own write counter)
   */
  public static void assertMatches(LsmMergeSimulator.Style style, RunLevelAccounting recorded, long written, long n, int b,
      int t) {
    LsmCostFormulas f = new LsmCostFormulas(n, b, t, 1); // P = 1: every term in entries
    assertEquals(f.levels(), recorded.depth(), "the data reaches level L");
    long keptEntries = 0;
    for (int i = 1; i <= f.levels(); i++) {
      String at = style + " level " + i;
      RunLevelAccounting.Level l = recorded.level(i);
      assertEquals(f.arrivals(i), l.arrivals(), at + " arrivals");
      keptEntries += l.keptEntries();
      if (style == LsmMergeSimulator.Style.LEVELED) {
        assertEquals(f.mergesLeveled(i), l.kept(), at + " (1)");
        assertEquals(f.readsLeveled(i), l.readEntries(), at + " (6)");
      } else {
        assertEquals(f.mergesTiered(i), l.merges(), at + " (2)");
        assertEquals(f.writesTiered(i), l.keptEntries(), at + " (3)");
        assertEquals(f.readsTieredScaled(i), l.readEntries(), at + " (5), scaled by level");
      }
    }
    assertEquals(keptEntries, written, "every entry written is a kept run");
    if (style == LsmMergeSimulator.Style.LEVELED) {
      long fills = LsmCostFormulas.sum(f.levels(), i -> f.fills(i) * b * pow(t, i));
      assertEquals(LsmCostFormulas.sum(f.levels(), f::writesLeveled) - fills, written, "(4) less the fills");
      assertEquals(LsmCostFormulas.sum(f.levels(), f::readsLeveled), LsmCostFormulas.sum(f.levels(), i -> recorded.level(i).readEntries()), "(6) summed to level L");
    } else {
      assertEquals(LsmCostFormulas.sum(f.levels(), f::writesTiered), written, "(3) summed to level L");
      assertEquals(f.mergesTiered(), LsmCostFormulas.sum(f.levels(), i -> recorded.level(i).merges()), "(2) in total");
    }
  }

  static long pow(int t, int e) {
    return io.iam.core.policy.RunLevels.power(t, e);
  }
}
