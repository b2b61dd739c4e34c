package io.iam.core.tree.iam;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keys to the kernel's ranks and back, with and without open ends. */
class KeyRanksTest {

  private static byte[] k(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void distinctKeysAreNumberedOneToNInOrderAndComeBackAsCopies() {
    byte[] b = k("b");
    KeyRanks ranks = KeyRanks.of(List.of(k("c"), b, k("a"), k("b")), Arrays::compare);
    assertEquals(3, ranks.size());
    assertEquals(1, ranks.rank(k("a")));
    assertEquals(2, ranks.rank(b), "an input array, found by identity");
    assertEquals(2, ranks.rank(k("b")), "an equal array, found by search");
    assertEquals(3, ranks.rank(k("c")));
    byte[] back = ranks.key(3);
    assertArrayEquals(k("c"), back);
    back[0] = 'x';
    assertArrayEquals(k("c"), ranks.key(3), "a copy");
    assertThrows(IllegalArgumentException.class, () -> ranks.rank(k("bb")));
    assertThrows(IllegalArgumentException.class, () -> ranks.key(0), "no open ends without an open key");
    assertThrows(IllegalArgumentException.class, () -> ranks.key(4));
  }

  @Test
  void openEndsAreZeroAndNPlusOne() {
    byte[] open = new byte[0];
    KeyRanks ranks = KeyRanks.of(Arrays.asList(open, k("m"), null, k("d")), Arrays::compare, e -> e.length == 0, open);
    assertEquals(2, ranks.size(), "open ends and nulls are not ranked");
    assertEquals(0, ranks.lo(open));
    assertEquals(3, ranks.hi(open));
    assertEquals(3, ranks.top());
    assertEquals(1, ranks.lo(k("d")));
    assertEquals(2, ranks.hi(k("m")));
    assertSame(open, ranks.key(0));
    assertSame(open, ranks.key(3));
    assertArrayEquals(k("m"), ranks.key(2));
  }
}
