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

  @Override
  public String name() {
    return "iam.BytewiseComparator";
  }
}
