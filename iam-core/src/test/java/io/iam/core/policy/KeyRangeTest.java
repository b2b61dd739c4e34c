package io.iam.core.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KeyRangeTest {

  private static byte[] k(int... bytes) {
    byte[] out = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      out[i] = (byte) bytes[i];
    }
    return out;
  }

  @Test
  void keysCompareAsUnsignedBytes() {
    KeyRange low = KeyRange.of(k(0x01), k(0x7f));
    KeyRange high = KeyRange.of(k(0x80), k(0xff)); // 0x80 is negative as a Java byte
    assertFalse(low.overlaps(high));
    assertTrue(low.overlaps(KeyRange.of(k(0x7f), k(0x80))));
    assertThrows(IllegalArgumentException.class, () -> KeyRange.of(k(0xff), k(0x01)));
  }

  @Test
  void spanCoversBothAndUnknownSpreads() {
    KeyRange a = KeyRange.of(k(5), k(9));
    KeyRange b = KeyRange.of(k(1), k(6));
    KeyRange span = a.span(b);
    assertArrayEquals(k(1), span.smallest());
    assertArrayEquals(k(9), span.largest());
    assertEquals(KeyRange.UNKNOWN, a.span(KeyRange.UNKNOWN));
    assertTrue(KeyRange.UNKNOWN.overlaps(a));
    assertThrows(IllegalStateException.class, KeyRange.UNKNOWN::smallest);
  }

  @Test
  void rangesAreImmutable() {
    byte[] lo = k(1);
    KeyRange r = KeyRange.of(lo, k(2));
    lo[0] = 9;
    r.smallest()[0] = 9;
    assertArrayEquals(k(1), r.smallest());
  }

  @Test
  void componentsCarryTheirRangeAndDefaultToUnknown() {
    KeyRange r = KeyRange.of(k(1), k(2));
    assertEquals(r, new Component(1, 10, 1, 1, 1, false, r).keyRange());
    assertEquals(KeyRange.UNKNOWN, Component.flushed(1, 10, 1).keyRange());
    assertThrows(IllegalArgumentException.class, () -> new Component(1, 10, 1, 1, 1, false, null));
  }
}
