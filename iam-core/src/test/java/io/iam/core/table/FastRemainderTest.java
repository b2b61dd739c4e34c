package io.iam.core.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FastRemainderTest {

  /** Numerators that stress the multiplication: the extremes and values around multiples of d. */
  private static List<Integer> numerators(SplittableRandom r, long d) {
    List<Integer> xs = new ArrayList<>(List.of(0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, (int) (d - 1), (int) d,
        (int) (d + 1)));
    for (int i = 0; i < 200; i++) {
      xs.add(r.nextInt());
      long multiple = d * (1 + r.nextLong(Math.max(1, 0xFFFF_FFFFL / d)));
      xs.add((int) (multiple - 1));
      xs.add((int) multiple);
    }
    return xs;
  }

  @Test
  void equalsTheUnsignedRemainderForEveryDivisorKind() {
    SplittableRandom r = new SplittableRandom(3);
    List<Long> divisors = new ArrayList<>(List.of(1L, 2L, 3L, 7L, 8L, 64L, 72L, 1000L, 65_536L, 65_537L,
        (1L << 31) - 1, 1L << 31, (1L << 31) + 8, 0xFFFF_FFF8L, 0xFFFF_FFFFL, 1L << 32, (1L << 32) + 8, 1L << 40));
    for (int i = 0; i < 300; i++) {
      divisors.add(8 * (1 + r.nextLong(1L << 29))); // Bloom filters: 8 × bytes
      divisors.add(1 + r.nextLong(0xFFFF_FFFFL));
    }
    for (long d : divisors) {
      FastRemainder m = new FastRemainder(d);
      for (int x : numerators(r, d)) {
        assertEquals(Integer.toUnsignedLong(x) % d, m.of(x), x + " mod " + d);
      }
    }
  }

  @Test
  void theInverseIsTheUnsignedQuotientOfTheLargestLong() {
    SplittableRandom r = new SplittableRandom(9);
    List<Long> divisors = new ArrayList<>(List.of(1L, 2L, 3L, 7L, 0xFFFF_FFFFL, 1L << 32, Long.MAX_VALUE));
    for (int i = 0; i < 10_000; i++) {
      divisors.add(1 + r.nextLong(Long.MAX_VALUE));
      divisors.add(1 + r.nextLong(1L << 33));
    }
    for (long d : divisors) {
      assertEquals(Long.divideUnsigned(-1L, d), FastRemainder.floorOfMaxOver(d), "divisor " + d);
    }
  }

  @Test
  void aDivisorMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> new FastRemainder(0));
    assertThrows(IllegalArgumentException.class, () -> new FastRemainder(-8));
  }
}
