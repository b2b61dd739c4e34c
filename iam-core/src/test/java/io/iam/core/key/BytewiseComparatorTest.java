package io.iam.core.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The shortest separator a block index stores between two blocks. */
class BytewiseComparatorTest {

  private static final BytewiseComparator C = BytewiseComparator.INSTANCE;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Test
  void cutsAfterTheFirstDifferingByteWhenItCanGoUp() {
    assertArrayEquals(b("user1234566"), C.separator(b("user1234565xyz"), b("user1234568abc")));
    assertArrayEquals(b("b"), C.separator(b("abcdef"), b("cde")));
  }

  @Test
  void goesToALaterByteWhenTheDifferingOneCannotRise() {
    // '5' + 1 == '6': the first difference cannot rise, so the next byte below 0xFF does.
    assertArrayEquals(b("user12345y"), C.separator(b("user12345xyz"), b("user12346")));
    assertArrayEquals(b("ab\u00ff\u00ffd"), C.separator(b("ab\u00ff\u00ffcz"), b("ac")));
  }

  @Test
  void keepsTheFirstKeyWhenNothingShorterFits() {
    byte[] a = b("user12345");
    assertSame(a, C.separator(a, b("user12346")), "one byte shorter would not lie above a");
    byte[] prefix = b("abc");
    assertSame(prefix, C.separator(prefix, b("abcd")), "a prefix of b");
    byte[] equal = b("abc");
    assertSame(equal, C.separator(equal, b("abc")));
    byte[] ffs = b("ab\u00ff\u00ff");
    assertSame(ffs, C.separator(ffs, b("ac")), "only 0xFF bytes after the difference");
    byte[] last = b("abc1");
    assertSame(last, C.separator(last, b("abc3")), "the difference is the last byte");
  }

  @Test
  void randomPairsGetASeparatorInRangeAndNoLonger() {
    Random r = new Random(20);
    int shortened = 0;
    for (int n = 0; n < 200_000; n++) {
      byte[] x = randomKey(r);
      byte[] y = randomKey(r);
      int c = C.compare(x, y);
      if (c == 0) {
        continue;
      }
      byte[] a = c < 0 ? x : y;
      byte[] z = c < 0 ? y : x;
      byte[] s = C.separator(a, z);
      assertTrue(C.compare(a, s) <= 0 && C.compare(s, z) < 0, "separator out of range");
      assertTrue(s.length <= a.length, "separator longer than the first key");
      if (s.length < a.length) {
        shortened++;
      }
    }
    assertTrue(shortened > 50_000, "only " + shortened + " separators shortened");
  }

  /** Keys from a small alphabet with many 0x00 and 0xFF bytes, so prefixes and edge bytes are common. */
  private static byte[] randomKey(Random r) {
    byte[] k = new byte[r.nextInt(8)];
    for (int i = 0; i < k.length; i++) {
      int p = r.nextInt(6);
      k[i] = (byte) (p == 0 ? 0x00 : p == 1 ? 0xFF : p == 2 ? 0xFE : p == 3 ? 0x01 : r.nextInt(256));
    }
    return k;
  }
}
