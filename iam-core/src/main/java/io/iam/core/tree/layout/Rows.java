package io.iam.core.tree.layout;

import java.util.Arrays;

/**
 * Row keys and inclusive node ranges as the engine stores them. Rows compare as unsigned bytes,
 * as HBase and the embedded engine order rows. A range end may be open: an empty array as a low end
 * means "from the first row", as a high end "to the last row" (HBase rows are never empty, so the
 * empty array is free for this). Pure and static.
 */
public final class Rows {

  public static final byte[] OPEN = new byte[0];

  private Rows() {}

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  public static boolean isOpen(byte[] end) {
    return end.length == 0;
  }

  /** Whether inclusive ranges {@code [lo1, hi1]} and {@code [lo2, hi2]} share a row. */
  public static boolean overlaps(byte[] lo1, byte[] hi1, byte[] lo2, byte[] hi2) {
    return atMost(lo2, hi1) && atMost(lo1, hi2);
  }

  /** Whether low end {@code lo} is at or below high end {@code hi}. */
  public static boolean atMost(byte[] lo, byte[] hi) {
    return isOpen(lo) || isOpen(hi) || compare(lo, hi) <= 0;
  }

  /** The lower of two low ends (open wins). */
  public static byte[] minLo(byte[] a, byte[] b) {
    return isOpen(a) || isOpen(b) ? OPEN : compare(a, b) <= 0 ? a : b;
  }

  /** The higher of two high ends (open wins). */
  public static byte[] maxHi(byte[] a, byte[] b) {
    return isOpen(a) || isOpen(b) ? OPEN : compare(a, b) >= 0 ? a : b;
  }

  /** Orders low ends: open first. */
  public static int compareLo(byte[] a, byte[] b) {
    if (isOpen(a) || isOpen(b)) {
      return Boolean.compare(!isOpen(a), !isOpen(b));
    }
    return compare(a, b);
  }
}
