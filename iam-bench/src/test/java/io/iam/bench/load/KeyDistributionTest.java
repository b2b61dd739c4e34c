package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import site.ycsb.generator.ScrambledZipfianGenerator;
import site.ycsb.generator.ZipfianGenerator;

class KeyDistributionTest {

  private static final int ITEMS = 1000;
  private static final int DRAWS = 200_000;

  @Test
  void theConstantsAreYcsbs() {
    assertEquals(ZipfianGenerator.ZIPFIAN_CONSTANT, ScrambledZipfian.ZIPFIAN_CONSTANT);
    assertEquals(ScrambledZipfianGenerator.USED_ZIPFIAN_CONSTANT, ScrambledZipfian.ZIPFIAN_CONSTANT);
    assertEquals(ScrambledZipfianGenerator.ITEM_COUNT, ScrambledZipfian.ITEM_COUNT);
    assertEquals(ScrambledZipfianGenerator.ZETAN, ScrambledZipfian.ZETAN);
  }

  @Test
  void ranksFollowGraysMethod() {
    // u * zeta < 1: rank 0; below 1 + 0.5^0.99: rank 1; then ranks grow with u, up to the item count.
    assertEquals(0, ScrambledZipfian.rank(0));
    assertEquals(0, ScrambledZipfian.rank(0.99 / ScrambledZipfian.ZETAN));
    assertEquals(1, ScrambledZipfian.rank(1.2 / ScrambledZipfian.ZETAN));
    long previous = 0;
    for (double u = 0.05; u < 1; u += 0.05) {
      long rank = ScrambledZipfian.rank(u);
      assertTrue(rank >= previous && rank <= ScrambledZipfian.ITEM_COUNT, u + " -> " + rank);
      previous = rank;
    }
    assertTrue(ScrambledZipfian.rank(Math.nextDown(1.0)) > ScrambledZipfian.ITEM_COUNT / 2);
  }

  @Test
  void zipfianDrawsTheHotItemsOfYcsbsScrambledZipfianAsOften() {
    int[] ours = counts(KeyDistribution.ZIPFIAN.chooser(ITEMS, new SplittableRandom(7)));
    ScrambledZipfianGenerator ycsb = new ScrambledZipfianGenerator(0, ITEMS - 1);
    int[] theirs = counts(ycsb::nextValue);

    // The most popular ranks land on the same record numbers (FNV scrambling), as often within noise.
    List<Integer> ourTop = top(ours, 3);
    assertEquals(top(theirs, 3), ourTop);
    assertEquals(Math.floorMod(LoadWorkload.fnvhash64(0), ITEMS), ourTop.get(0).intValue());
    for (int item : ourTop) {
      assertEquals(theirs[item], ours[item], 0.15 * theirs[item], "item " + item);
    }
    // Rank 0 alone is drawn with probability 1 / zeta(10^10), about 3.8%.
    assertEquals(DRAWS / ScrambledZipfian.ZETAN, ours[ourTop.get(0)], 0.1 * DRAWS / ScrambledZipfian.ZETAN);
  }

  @Test
  void uniformIsFlatAndBothStayInRange() {
    int[] uniform = counts(KeyDistribution.UNIFORM.chooser(ITEMS, new SplittableRandom(7)));
    int expected = DRAWS / ITEMS;
    assertTrue(IntStream.of(uniform).allMatch(c -> c > expected / 2 && c < expected * 2),
        "every item near " + expected);

    LongSupplier one = KeyDistribution.ZIPFIAN.chooser(1, new SplittableRandom(1));
    for (int i = 0; i < 100; i++) {
      assertEquals(0, one.getAsLong());
    }
  }

  @Test
  void theSameSeedDrawsTheSameRecords() {
    for (KeyDistribution d : KeyDistribution.values()) {
      LongSupplier a = d.chooser(ITEMS, new SplittableRandom(3));
      LongSupplier b = d.chooser(ITEMS, new SplittableRandom(3));
      for (int i = 0; i < 1000; i++) {
        assertEquals(a.getAsLong(), b.getAsLong(), d + " draw " + i);
      }
    }
  }

  @Test
  void namesParseAndRejectOthers() {
    assertEquals(KeyDistribution.ZIPFIAN, KeyDistribution.parse(" Zipfian"));
    assertEquals(KeyDistribution.UNIFORM, KeyDistribution.parse("uniform"));
    assertEquals("zipfian", KeyDistribution.ZIPFIAN.cliName());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KeyDistribution.parse("pareto"));
    assertEquals("'pareto' is not one of: uniform, zipfian, first", e.getMessage());
    assertEquals(KeyDistribution.FIRST, KeyDistribution.parse("first"));
    assertTrue(KeyDistribution.FIRST.fromFirstKey() && !KeyDistribution.UNIFORM.fromFirstKey());
    assertThrows(IllegalArgumentException.class, () -> new ScrambledZipfian(0, new SplittableRandom(1)));
  }

  /** How often each item in [0, ITEMS) is drawn in DRAWS draws; fails on an item out of range. */
  private static int[] counts(LongSupplier draws) {
    int[] counts = new int[ITEMS];
    for (int i = 0; i < DRAWS; i++) {
      long item = draws.getAsLong();
      assertTrue(item >= 0 && item < ITEMS, "drawn " + item);
      counts[(int) item]++;
    }
    return counts;
  }

  /** The {@code n} most drawn items, most drawn first. */
  private static List<Integer> top(int[] counts, int n) {
    return IntStream.range(0, counts.length).boxed()
        .sorted(Comparator.comparingInt((Integer i) -> counts[i]).reversed())
        .limit(n).toList();
  }
}
