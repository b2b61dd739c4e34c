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

  private static final Comparator<IntervalBTree.Item<Long, Integer>> ORDER =
      Comparator.<IntervalBTree.Item<Long, Integer>, Long>comparing(IntervalBTree.Item::lo)
          .thenComparing(IntervalBTree.Item::hi)
          .thenComparing(IntervalBTree.Item::value);

  private static List<IntervalBTree.Item<Long, Integer>> scan(List<IntervalBTree.Item<Long, Integer>> all, long lo, long hi) {
    List<IntervalBTree.Item<Long, Integer>> out = new ArrayList<>();
    for (IntervalBTree.Item<Long, Integer> it : all) {
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
      IntervalBTree<Long, Integer> tree = IntervalBTree.ofLongs();
      List<IntervalBTree<Long, Integer>> snapshots = new ArrayList<>();
      List<List<IntervalBTree.Item<Long, Integer>>> snapshotContents = new ArrayList<>();
      List<IntervalBTree.Item<Long, Integer>> live = new ArrayList<>();
      int domain = seed % 2 == 0 ? 100 : 100_000; // small domains give many equal intervals
      for (int step = 0; step < 2000; step++) {
        String at = "seed=" + seed + " step=" + step;
        if (!live.isEmpty() && rnd.nextInt(5) == 0) {
          IntervalBTree.Item<Long, Integer> gone = live.remove(rnd.nextInt(live.size()));
          assertTrue(tree.remove(gone), at);
          assertFalse(tree.remove(gone), at);
        } else {
          long lo = rnd.nextInt(domain);
          long hi = lo + (rnd.nextInt(10) == 0 ? rnd.nextInt(domain) : rnd.nextInt(domain / 50 + 1));
          live.add(tree.insert(lo, hi, step));
        }
        assertEquals(live.size(), tree.size(), at);
        if (step % 50 == 0) {
          snapshots.add(tree.snapshot()); // path copying: later changes must not reach it
          snapshotContents.add(scan(live, Long.MIN_VALUE, Long.MAX_VALUE));
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
      for (int i = 0; i < snapshots.size(); i++) {
        snapshots.get(i).checkInvariants();
        assertEquals(snapshotContents.get(i), snapshots.get(i).all(), "seed=" + seed + " snapshot " + i);
        assertEquals(snapshotContents.get(i).size(), snapshots.get(i).size());
      }
    }
  }

  @Test
  void touchingEndpointsOverlapAndEmptyQueriesFindNothing() {
    IntervalBTree<Long, String> tree = IntervalBTree.ofLongs();
    tree.insert(1L, 3L, "a");
    tree.insert(5L, 5L, "b");
    assertEquals(List.of("a"), tree.stab(3L).stream().map(IntervalBTree.Item::value).toList());
    assertEquals(List.of("a", "b"), tree.overlapping(3L, 5L).stream().map(IntervalBTree.Item::value).toList());
    assertEquals(List.of(), tree.overlapping(4L, 4L));
    assertEquals(List.of(), tree.overlapping(5L, 1L));
    assertThrows(IllegalArgumentException.class, () -> tree.insert(2L, 1L, "c"));
    IntervalBTree<Long, String> other = IntervalBTree.ofLongs();
    IntervalBTree.Item<Long, String> lookalike = other.insert(1L, 3L, "a"); // same lo, hi and insertion number
    assertFalse(tree.remove(lookalike));
    assertEquals(2, tree.size());
  }

  @Test
  void deepestIsTheLeftmostPointHeldByTheMostIntervals() {
    IntervalBTree<Long, String> tree = IntervalBTree.ofLongs();
    assertEquals(new IntervalBTree.Depth<Long>(null, 0), tree.deepest());
    tree.insert(1L, 4L, "a");
    tree.insert(4L, 9L, "b"); // touches a at 4
    tree.insert(6L, 7L, "c");
    tree.insert(8L, 12L, "d");
    assertEquals(new IntervalBTree.Depth<>(4L, 2), tree.deepest());
    tree.insert(6L, 6L, "e");
    assertEquals(new IntervalBTree.Depth<>(6L, 3), tree.deepest());
  }
}
