package io.iam.core.policy;

import java.util.Arrays;

/**
 * The smallest and largest key a component holds, compared as unsigned bytes, or {@link #UNKNOWN}
 * when the caller does not track it (the cost-model simulator, for instance). Immutable: the
 * arrays are copied in and out.
 */
public final class KeyRange {

  /** No key range is known. */
  public static final KeyRange UNKNOWN = new KeyRange(null, null);

  private final byte[] smallest;
  private final byte[] largest;

  private KeyRange(byte[] smallest, byte[] largest) {
    this.smallest = smallest;
    this.largest = largest;
  }

  /**
   * The range {@code [smallest, largest]}.
   *
   * @throws IllegalArgumentException if a key is null or {@code smallest > largest}
   */
  public static KeyRange of(byte[] smallest, byte[] largest) {
    if (smallest == null || largest == null) {
      throw new IllegalArgumentException("key range bounds must not be null; use KeyRange.UNKNOWN");
    }
    if (Arrays.compareUnsigned(smallest, largest) > 0) {
      throw new IllegalArgumentException("key range is inverted: smallest > largest");
    }
    return new KeyRange(smallest.clone(), largest.clone());
  }

  public boolean isKnown() {
    return smallest != null;
  }

  /** The smallest key; fails for {@link #UNKNOWN}. */
  public byte[] smallest() {
    requireKnown();
    return smallest.clone();
  }

  /** The largest key; fails for {@link #UNKNOWN}. */
  public byte[] largest() {
    requireKnown();
    return largest.clone();
  }

  /** Whether the two ranges share a key; unknown ranges are taken to overlap everything. */
  public boolean overlaps(KeyRange other) {
    if (!isKnown() || !other.isKnown()) {
      return true;
    }
    return Arrays.compareUnsigned(smallest, other.largest) <= 0
        && Arrays.compareUnsigned(other.smallest, largest) <= 0;
  }

  /** The smallest range covering both, as a merge of the two components would; unknown if either is. */
  public KeyRange span(KeyRange other) {
    if (!isKnown() || !other.isKnown()) {
      return UNKNOWN;
    }
    byte[] lo = Arrays.compareUnsigned(smallest, other.smallest) <= 0 ? smallest : other.smallest;
    byte[] hi = Arrays.compareUnsigned(largest, other.largest) >= 0 ? largest : other.largest;
    return new KeyRange(lo, hi);
  }

  private void requireKnown() {
    if (!isKnown()) {
      throw new IllegalStateException("the key range is unknown");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange r && Arrays.equals(smallest, r.smallest) && Arrays.equals(largest, r.largest);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(smallest) + Arrays.hashCode(largest);
  }

  @Override
  public String toString() {
    return isKnown() ? "[" + hex(smallest) + ", " + hex(largest) + "]" : "[unknown]";
  }

  private static String hex(byte[] key) {
    StringBuilder sb = new StringBuilder();
    for (byte b : key) {
      sb.append(String.format("%02x", b & 0xff));
    }
    return sb.toString();
  }
}
