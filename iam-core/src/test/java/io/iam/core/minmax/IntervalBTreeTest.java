package io.iam.core.minmax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Overlap queries of the interval tree against a brute-force scan, with inserts and removes. */
class IntervalBTreeTest {

  private static final Comparator<IntervalBTree.Item<Integer>> ORDER =
      Comparator.<IntervalBTree.Item<Integer>>comparingLong(IntervalBTree.Item::lo)
          .thenComparingLong(IntervalBTree.Item::hi)
          .thenComparing(IntervalBTree.Item::value);

  private static List<IntervalBTree.Item<Integer>> scan(List<IntervalBTree.Item<Integer>> all, long lo, long hi) {
    List<IntervalBTree.Item<Integer>> out = new ArrayList<>();
    for (IntervalBTree.Item<Integer> it : all) {
      if (it.lo() <= hi && it.hi() >= lo) {
        out.add(it);
      }
    }
    out.sort(ORDER);
    return out;
  }

  @Test
  void overlapQueriesEqualABruteForceScan() {
    for (long seed = 1; seed <= 8; seed++) {
      Random rnd = new Random(seed);
      IntervalBTree<Integer> tree = new IntervalBTree<>();
      List<IntervalBTree.Item<Integer>> live = new ArrayList<>();
      int domain = seed % 2 == 0 ? 100 : 100_000; // small domains give many equal intervals
      for (int step = 0; step < 2000; step++) {
        String at = "seed=" + seed + " step=" + step;
        if (!live.isEmpty() && rnd.nextInt(5) == 0) {
          IntervalBTree.Item<Integer> gone = live.remove(rnd.nextInt(live.size()));
          assertTrue(tree.remove(gone), at);
          assertFalse(tree.remove(gone), at);
        } else {
          long lo = rnd.nextInt(domain);
          long hi = lo + (rnd.nextInt(10) == 0 ? rnd.nextInt(domain) : rnd.nextInt(domain / 50 + 1));
          live.add(tree.insert(lo, hi, step));
        }
        assertEquals(live.size(), tree.size(), at);
        if (step % 50 == 0) {
          tree.checkInvariants();
          assertTrue(tree.height() <= 1.45 * (Math.log(tree.size() + 2) / Math.log(2)), at);
        }
        long qlo = rnd.nextInt(domain + 20) - 10;
        long qhi = qlo + (rnd.nextBoolean() ? 0 : rnd.nextInt(domain / 10 + 1));
        assertEquals(scan(live, qlo, qhi), tree.overlapping(qlo, qhi), at + " [" + qlo + ", " + qhi + "]");
        assertEquals(scan(live, qlo, qlo), tree.stab(qlo), at + " stab " + qlo);
      }
      tree.checkInvariants();
      assertEquals(scan(live, Long.MIN_VALUE, Long.MAX_VALUE), tree.all());
    }
  }

  @Test
  void touchingEndpointsOverlapAndEmptyQueriesFindNothing() {
    IntervalBTree<String> tree = new IntervalBTree<>();
    tree.insert(1, 3, "a");
    tree.insert(5, 5, "b");
    assertEquals(List.of("a"), tree.stab(3).stream().map(IntervalBTree.Item::value).toList());
    assertEquals(List.of("a", "b"), tree.overlapping(3, 5).stream().map(IntervalBTree.Item::value).toList());
    assertEquals(List.of(), tree.overlapping(4, 4));
    assertEquals(List.of(), tree.overlapping(5, 1));
    assertThrows(IllegalArgumentException.class, () -> tree.insert(2, 1, "c"));
    IntervalBTree<String> other = new IntervalBTree<>();
    IntervalBTree.Item<String> lookalike = other.insert(1, 3, "a"); // same lo, hi and insertion number
    assertFalse(tree.remove(lookalike));
    assertEquals(2, tree.size());
  }
}
