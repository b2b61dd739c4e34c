package io.iam.core.tree.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CombinePlannerTest {

  private static Node node(long id, int level, long lo, long hi) {
    return new Node(id, level, lo, hi, 1, 1);
  }

  @Test
  void picksTheNodeWhoseNeighbourhoodCoversFewestChildren() {
    // t = 2: L1 may hold 2 nodes; it holds 4, so one with two neighbours (b or c) is combined.
    // Children at L2: 3 under a, 1 under b, 1 under c, 1 under d.
    Node a = node(1, 1, 0, 99);
    Node b = node(2, 1, 100, 199);
    Node c = node(3, 1, 200, 299);
    Node d = node(4, 1, 300, 399);
    List<Node> l2 = new ArrayList<>();
    long id = 10;
    for (long lo : new long[] {0, 30, 60, 110, 210, 310}) {
      l2.add(node(id++, 2, lo, lo + 5));
    }
    TreeShape shape = new TreeShape(List.of(List.of(a, b, c, d), l2, List.of()), 2, 100);
    // T_cn(b) = 3 + 1 + 1 = 5, T_cn(c) = 1 + 1 + 1 = 3.
    assertEquals(5, CombinePlanner.coveredChildren(shape, 1, 1));
    assertEquals(3, CombinePlanner.coveredChildren(shape, 1, 2));
    assertEquals(Optional.of(c), CombinePlanner.pick(shape));
  }

  @Test
  void nothingToDoWithinThresholds() {
    TreeShape shape = new TreeShape(List.of(List.of(node(1, 1, 0, 1), node(2, 1, 5, 6)), List.of()), 2, 100);
    assertEquals(Optional.empty(), CombinePlanner.pick(shape));
    assertFalse(CombinePlanner.needsNewLevel(shape));
  }

  @Test
  void fullLeafLevelNeedsANewLevel() {
    // Leaf level 1 with t = 3 is full at 3 nodes.
    TreeShape two = new TreeShape(List.of(List.of(node(1, 1, 0, 1), node(2, 1, 5, 6))), 3, 100);
    TreeShape three = new TreeShape(List.of(List.of(node(1, 1, 0, 1), node(2, 1, 5, 6), node(3, 1, 8, 9))), 3, 100);
    assertFalse(CombinePlanner.needsNewLevel(two));
    assertTrue(CombinePlanner.needsNewLevel(three));
  }
}
