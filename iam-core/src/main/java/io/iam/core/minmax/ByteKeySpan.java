package io.iam.core.minmax;

/**
 * max − min of two byte-string keys in unsigned-byte order, for {@link WindowCache} over byte
 * keys: each key read as the fraction 0.b0 b1 b2 … in base 256, their difference computed on the
 * 8 bytes that follow their common prefix, and returned as the bits of a non-negative
 * {@code double} (whose bit patterns order like the values, so they compare as unsigned longs).
 *
 * <p>Exact to 64 bits after the common prefix; the difference of two keys that differ only
 * further on is rounded down, and beyond about 120 common bytes it underflows to 0 (such windows
 * then tie, and the leftmost wins). Widening a window never makes its span smaller. Example: the
 * 8-byte big-endian keys 9 and 10 give 2^−64, keys 1 and 3 give 2^−63, so [9, 10] is the more
 * compact window, as in the paper's example.
 *
 * <p>Pure.
 */
public final class ByteKeySpan {

  private ByteKeySpan() {}

  /** The span from {@code min} to {@code max} ({@code min ≤ max} in unsigned-byte order). */
  public static long between(byte[] min, int minLength, byte[] max, int maxLength) {
    int p = 0;
    int common = Math.min(minLength, maxLength);
    while (p < common && min[p] == max[p]) {
      p++;
    }
    long m = slice(max, maxLength, p) - slice(min, minLength, p);
    double d = m >= 0 ? m : ((m >>> 1) | (m & 1)) * 2.0; // unsigned to double
    return Double.doubleToRawLongBits(Math.scalb(d, -8 * (p + 8)));
  }

  /** Bytes {@code from} … {@code from + 7} of {@code key} as an unsigned big-endian number, zero-padded. */
  private static long slice(byte[] key, int length, int from) {
    long v = 0;
    for (int i = from; i < from + 8; i++) {
      v = (v << 8) | (i < length ? key[i] & 0xFF : 0);
    }
    return v;
  }
}
