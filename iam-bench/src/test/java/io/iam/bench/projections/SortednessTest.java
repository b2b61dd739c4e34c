package io.iam.bench.projections;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SortednessTest {

  @Test
  void smallStreamsByHand() {
    assertEquals(new Sortedness(0, 0, 0, 0), Sortedness.of(new long[0]));
    assertEquals(new Sortedness(4, 0, 0, 1), Sortedness.of(new long[] {1, 2, 2, 3}));
    // 3 1 2: (3,1) and (3,2) inverted; 3 moves two places; runs [3] [1 2].
    assertEquals(new Sortedness(3, 2, 2, 2), Sortedness.of(new long[] {3, 1, 2}));
    Sortedness reversed = Sortedness.of(new long[] {5, 4, 3, 2, 1});
    assertEquals(new Sortedness(5, 10, 4, 5), reversed);
    assertEquals(1.0, reversed.inversionFraction());
    assertEquals(1.0, reversed.meanRunLength());
  }

  @Test
  void inversionsMatchACountOfEveryPair() {
    SplittableRandom random = new SplittableRandom(9);
    for (int round = 0; round < 20; round++) {
      long[] keys = new long[1 + random.nextInt(300)];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = random.nextInt(50);
      }
      long pairs = 0;
      for (int i = 0; i < keys.length; i++) {
        for (int j = i + 1; j < keys.length; j++) {
          pairs += keys[i] > keys[j] ? 1 : 0;
        }
      }
      assertEquals(pairs, Sortedness.of(keys).inversions());
    }
  }
}
