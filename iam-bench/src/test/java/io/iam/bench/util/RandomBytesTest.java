package io.iam.bench.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RandomBytesTest {

  @Test
  void fillsTheBytesSplittableRandomGives() {
    for (long seed = 0; seed < 200; seed++) {
      for (int size : new int[] {0, 1, 7, 8, 9, 15, 16, 17, 100, 1023, 1024, 1025}) {
        byte[] expected = new byte[size];
        new SplittableRandom(seed).nextBytes(expected);
        byte[] filled = new byte[size];
        RandomBytes.fill(new SplittableRandom(seed), filled);
        assertArrayEquals(expected, filled, "seed " + seed + ", " + size + " bytes");
      }
    }
    SplittableRandom reference = new SplittableRandom(5); // and in a row, as a load draws them
    SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 10; i++) {
      byte[] expected = new byte[1000];
      reference.nextBytes(expected);
      byte[] filled = new byte[1000];
      RandomBytes.fill(random, filled);
      assertArrayEquals(expected, filled, "value " + i);
    }
  }
}
