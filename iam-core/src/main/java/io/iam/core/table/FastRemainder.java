package io.iam.core.table;

/**
 * {@code x mod d} for an unsigned 32-bit {@code x} and a fixed divisor {@code d}, computed with two
 * multiplications instead of a division (Lemire, Kaser and Kurz, "Faster remainder by direct
 * computation", 2019). The result is exactly {@code Integer.toUnsignedLong(x) % d}: the Bloom
 * filter's probe positions are part of the file format, and this only makes them cheaper to find.
 * Divisors of 2^32 and above, and 1, fall back to {@code %}. Immutable.
 */
final class FastRemainder {

  private final long divisor;
  /** ceil(2^64 / divisor), or 0 where the division is used instead. */
  private final long inverse;

  FastRemainder(long divisor) {
    if (divisor <= 0) {
      throw new IllegalArgumentException("divisor must be positive: " + divisor);
    }
    this.divisor = divisor;
    this.inverse = divisor > 1 && divisor < (1L << 32) ? floorOfMaxOver(divisor) + 1 : 0;
  }

  /**
   * (2^64 − 1) / d rounded down, for 0 &lt; d &lt; 2^63, with signed divisions only: Java 17's {@code
   * Long.divideUnsigned} divides a negative dividend through BigInteger, and filters are built and
   * opened often enough for that to show in a profile. 2^64 − 1 = 2 ⌊(2^63 − 1) / d⌋ d + r with
   * r &lt; 2d, so one correction step finishes it.
   */
  static long floorOfMaxOver(long d) {
    long q = (Long.MAX_VALUE / d) << 1;
    long r = -1L - q * d;
    return Long.compareUnsigned(r, d) >= 0 ? q + 1 : q;
  }

  /** {@code Integer.toUnsignedLong(x) % divisor}. */
  long of(int x) {
    long u = Integer.toUnsignedLong(x);
    if (inverse == 0) {
      return u % divisor;
    }
    long fraction = inverse * u; // the low 64 bits: x / divisor's fractional part, scaled by 2^64
    // the high 64 bits of the unsigned product fraction × divisor (divisor < 2^32 is non-negative)
    return Math.multiplyHigh(fraction, divisor) + ((fraction >> 63) & divisor);
  }
}
