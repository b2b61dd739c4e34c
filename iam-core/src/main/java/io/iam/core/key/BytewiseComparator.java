package io.iam.core.key;

import java.util.Arrays;

/** Unsigned lexicographic order of bytes, the default (as in LevelDB and RocksDB). */
public final class BytewiseComparator implements KeyComparator {

  public static final BytewiseComparator INSTANCE = new BytewiseComparator();

  private BytewiseComparator() {}

  @Override
  public int compare(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    return Arrays.compareUnsigned(a, aOff, aOff + aLen, b, bOff, bOff + bLen);
  }

  /**
   * Cuts {@code a} just after the first byte it can raise while staying below {@code b}: at the
   * first position where they differ if that byte can go up by one and stay below {@code b}'s,
   * else at the first later byte of {@code a} below 0xFF (then {@code b}'s larger byte at the
   * first difference keeps the result below {@code b}). Returns {@code a} itself when that is not
   * shorter, or when {@code a} is a prefix of {@code b}.
   */
  @Override
  public byte[] separator(byte[] a, byte[] b) {
    int diff = Arrays.mismatch(a, b);
    if (diff < 0 || diff >= Math.min(a.length, b.length)) {
      return a; // equal, or one is a prefix of the other
    }
    int at = diff;
    if ((a[diff] & 0xFF) + 1 >= (b[diff] & 0xFF)) {
      at = diff + 1;
      while (at < a.length && (a[at] & 0xFF) == 0xFF) {
        at++;
      }
    }
    if (at + 1 >= a.length) {
      return a;
    }
    byte[] s = Arrays.copyOf(a, at + 1);
    s[at]++;
    return s;
  }

  @Override
  public String name() {
    return "iam.BytewiseComparator";
  }
}
