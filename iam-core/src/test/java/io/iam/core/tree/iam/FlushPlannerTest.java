package io.iam.core.tree.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.tree.iam.FlushPlan.Action;
import io.iam.core.tree.iam.FlushPlan.Assignment;
import io.iam.core.tree.iam.FlushPlan.Kind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlushPlannerTest {

  private static final long C = 1000;

  private static Node node(long id, int level, long lo, long hi, long bytes, int seqs) {
    return new Node(id, level, lo, hi, bytes, seqs);
  }

  @Test
  void aFullLevelOneNodeTakesAMemtableOnlyOnceTheFlushHasWaitedItsPatienceAndWhileTheShareFits() {
    long capacity = 1 << 20;
    long file = 3 * capacity;
    long share = capacity / 10;
    long tenMillis = 10_000_000L;
    // Below 2 × C_t: at once, whatever the wait or the share.
    assertTrue(FlushPlanner.levelOneTakesMemtable(2 * capacity - 1, 5 * capacity, capacity, file, 0, tenMillis));
    // At the hard limit: not before the patience, then yes while the share fits the file.
    assertFalse(FlushPlanner.levelOneTakesMemtable(2 * capacity, share, capacity, file, 0, tenMillis));
    assertFalse(FlushPlanner.levelOneTakesMemtable(2 * capacity, share, capacity, file, tenMillis - 1, tenMillis));
    assertTrue(FlushPlanner.levelOneTakesMemtable(2 * capacity, share, capacity, file, tenMillis, tenMillis));
    assertTrue(FlushPlanner.levelOneTakesMemtable(file - share, share, capacity, file, tenMillis, tenMillis));
    assertFalse(FlushPlanner.levelOneTakesMemtable(file - share + 1, share, capacity, file, tenMillis, tenMillis));
    // No patience: at once; unbounded patience: never.
    assertTrue(FlushPlanner.levelOneTakesMemtable(2 * capacity, share, capacity, file, 0, 0));
    assertFalse(FlushPlanner.levelOneTakesMemtable(2 * capacity, share, capacity, file, Long.MAX_VALUE - 1,
        Long.MAX_VALUE));
  }

  @Test
  void nodeWithoutChildrenMoves() {
    Node parent = node(1, 1, 100, 200, C, 3);
    TreeShape shape = new TreeShape(List.of(List.of(parent), List.of(node(2, 2, 300, 400, 10, 1))), 10, C);
    FlushPlan plan = FlushPlanner.plan(shape, parent, Mode.lsa());
    assertEquals(Kind.MOVE, plan.kind());
    assertEquals(parent, plan.node());
  }

  @Test
  void leafGapsGoToTheClosestChildAsInFigureThree() {
    // Parent {9, 99} over leaves {12,31}, {40,50}, {60,80}; the {40,50}-{60,80} gap is 51..59:
    // 51..55 are closer to (or tied with) 50, 56..59 to 60. Keys 9..11 go to the first child, 81..99 to the last.
    Node parent = node(1, 1, 9, 99, C, 4);
    Node a = node(2, 2, 12, 31, 100, 1);
    Node b = node(3, 2, 40, 50, C, 2); // full leaf
    Node c = node(4, 2, 60, 80, 100, 3);
    TreeShape shape = new TreeShape(List.of(List.of(parent), List.of(a, b, c)), 10, C);
    FlushPlan plan = FlushPlanner.plan(shape, parent, Mode.lsa());
    assertEquals(Kind.FLUSH, plan.kind());
    assertEquals(List.of(
        new Assignment(a, 9, 35, Action.APPEND), // gap 32..39: 32..35 closer to 31
        new Assignment(b, 36, 55, Action.MERGE_AND_CUT),
        new Assignment(c, 56, 99, Action.APPEND)), plan.assignments());
  }

  @Test
  void internalGapsGoToTheChildWithFewerChildren() {
    // L2 {9,99} covers 1 child, {120,225} covers 2: the gap 100..119 goes to {9,99}.
    Node parent = node(1, 1, 3, 999, C, 1);
    Node left = node(2, 2, 9, 99, 10, 1);
    Node right = node(3, 2, 120, 225, 10, 1);
    List<Node> l3 = List.of(node(4, 3, 10, 20, 1, 1), node(5, 3, 130, 140, 1, 1), node(6, 3, 150, 160, 1, 1));
    TreeShape shape = new TreeShape(List.of(List.of(parent), List.of(left, right), l3), 10, C);
    FlushPlan plan = FlushPlanner.plan(shape, parent, Mode.lsa());
    assertEquals(List.of(new Assignment(left, 3, 119, Action.APPEND), new Assignment(right, 120, 999, Action.APPEND)),
        plan.assignments());
    // Swap the counts: now {120,225} has fewer children and takes the gap from 100.
    List<Node> l3b = List.of(node(4, 3, 10, 20, 1, 1), node(5, 3, 30, 40, 1, 1), node(6, 3, 150, 160, 1, 1));
    TreeShape shape2 = new TreeShape(List.of(List.of(parent), List.of(left, right), l3b), 10, C);
    assertEquals(100, FlushPlanner.plan(shape2, parent, Mode.lsa()).assignments().get(1).lo());
  }

  @Test
  void internalBoundaryEvensOutGrandchildCountsAsInSectionFourTwoOne() {
    // §4.2.1's example: {9,99} with 5 children and {120,225} with 10 under {3,999}. {120,225} has
    // just flushed (holds no records), so the boundary may move into its range.
    Node parent = node(1, 1, 3, 999, C, 1);
    Node left = node(2, 2, 9, 99, 10, 1);
    Node right = node(3, 2, 120, 225, 0, 0);
    List<Node> l3 = new ArrayList<>();
    for (int k = 0; k < 5; k++) {
      l3.add(node(10 + k, 3, 10 + 15L * k, 12 + 15L * k, 1, 1));
    }
    for (int k = 0; k < 10; k++) {
      l3.add(node(20 + k, 3, 125 + 10L * k, 128 + 10L * k, 1, 1));
    }
    TreeShape shape = new TreeShape(List.of(List.of(parent), List.of(left, right), l3), 10, C);
    assertEquals(5, shape.childCount(left));
    assertEquals(10, shape.childCount(right));
    List<Assignment> as = FlushPlanner.plan(shape, parent, Mode.lsa()).assignments();
    assertEquals(2, as.size());
    assertEquals(3, as.get(0).lo());
    assertEquals(as.get(0).hi() + 1, as.get(1).lo());
    assertEquals(999, as.get(1).hi());
    int cl = shape.overlapping(3, as.get(0).lo(), as.get(0).hi()).size();
    int cr = shape.overlapping(3, as.get(1).lo(), as.get(1).hi()).size();
    assertTrue(Math.abs(cl - cr) <= 1, cl + " vs " + cr);
    assertEquals(15, cl + cr, "the boundary cuts through no grandchild");
    assertEquals(8, cl, "the child with fewer children gets the extra one");

    // If {120,225} holds records its range cannot shrink: only the gap 100..119 can move, and it
    // goes to {9,99}; the counts stay 5 and 10 because the keys do not allow better.
    Node heldRight = node(3, 2, 120, 225, 10, 1);
    TreeShape held = new TreeShape(List.of(List.of(parent), List.of(left, heldRight), l3), 10, C);
    assertEquals(List.of(new Assignment(left, 3, 119, Action.APPEND), new Assignment(heldRight, 120, 999, Action.APPEND)),
        FlushPlanner.plan(held, parent, Mode.lsa()).assignments());
  }

  @Test
  void aBoundaryCutsThroughNoGrandchild() {
    // {10,49} holds records and no children; {50,99} was emptied by a move and covers its only
    // child, the moved node {50,99}. A boundary at 99 would even the counts (1 and 1) by putting
    // the moved node under both; the boundary stays at 50 instead (1 against 0), so the next
    // flush of {10,49} does not merge into the full moved node.
    Node parent = node(1, 1, 0, 199, C, 1);
    Node left = node(2, 2, 10, 49, 10, 1);
    Node emptied = node(3, 2, 50, 99, 0, 0);
    Node moved = node(4, 3, 50, 99, C, 1);
    TreeShape shape = new TreeShape(List.of(List.of(parent), List.of(left, emptied), List.of(moved)), 10, C);
    List<Assignment> as = FlushPlanner.plan(shape, parent, Mode.lsa()).assignments();
    assertEquals(List.of(new Assignment(left, 0, 49, Action.APPEND), new Assignment(emptied, 50, 199, Action.APPEND)), as);
    // The shrink after a flush follows the same order: {50,99} keeps its range rather than hand
    // {10,49} the part 50..98 of the moved node's range.
    assertEquals(List.of(), FlushPlanner.planShrink(shape, emptied));
  }

  @Test
  void anEmptiedNodeShrinksTowardItsNeighbour() {
    // X = [100,300] has just flushed and covers 12 children; its left neighbour [0,50] covers 2.
    Node leftN = node(1, 1, 0, 50, 40, 2);
    Node x = node(2, 1, 100, 300, 0, 0);
    List<Node> l2 = new ArrayList<>(List.of(node(10, 2, 10, 12, 1, 1), node(11, 2, 30, 32, 1, 1)));
    for (int k = 0; k < 12; k++) {
      l2.add(node(20 + k, 2, 100 + 15L * k, 105 + 15L * k, 1, 1));
    }
    TreeShape shape = new TreeShape(List.of(List.of(leftN, x), l2, List.of()), 10, C);
    List<Node> resized = FlushPlanner.planShrink(shape, x);
    // Boundary at 166 (after the child [160,165]): 2 + 5 = 7 on the left, 7 on the right; among
    // equally even boundaries X keeps the most range.
    assertEquals(List.of(node(1, 1, 0, 165, 40, 2), node(2, 1, 166, 300, 0, 0)), resized);
    TreeShape after = new TreeShape(List.of(resized, l2, List.of()), 10, C);
    assertEquals(7, after.childCount(resized.get(0)));
    assertEquals(7, after.childCount(resized.get(1)));
    // A node holding records is not shrunk.
    assertThrows(IllegalArgumentException.class, () -> FlushPlanner.planShrink(shape, leftN));
  }

  @Test
  void assignmentsAreClippedToTheParent() {
    Node parent = node(1, 1, 50, 60, C, 1);
    Node child = node(2, 2, 0, 100, 10, 1);
    TreeShape shape = new TreeShape(List.of(List.of(parent), List.of(child)), 10, C);
    assertEquals(List.of(new Assignment(child, 50, 60, Action.APPEND)), FlushPlanner.plan(shape, parent, Mode.lsa()).assignments());
  }

  @Test
  void twoTChildrenSplitAtTheMiddleChild() {
    int t = 3;
    Node parent = node(1, 1, 0, 1000, C, 2);
    List<Node> children = new ArrayList<>();
    for (int i = 0; i < 2 * t; i++) {
      children.add(node(10 + i, 2, i * 100L, i * 100L + 50, 10, 1));
    }
    TreeShape shape = new TreeShape(List.of(List.of(parent), children), t, C);
    FlushPlan plan = FlushPlanner.plan(shape, parent, Mode.lsa());
    assertEquals(Kind.SPLIT, plan.kind());
    assertEquals(300, plan.splitKey()); // children 0..2 left, 3..5 right
    // A combine never splits: it flushes.
    assertEquals(Kind.FLUSH, FlushPlanner.planCombine(shape, parent, Mode.lsa()).kind());
    // The memtable cannot split.
    Node mem = node(99, 0, 0, 1000, C, 1);
    List<Node> l1 = children.stream().map(n -> n.withLevel(1)).toList();
    assertEquals(Kind.FLUSH, FlushPlanner.plan(new TreeShape(List.of(l1, List.of()), t, C), mem, Mode.lsa()).kind());
  }

  @Test
  void modesChooseAppendOrMergePerLevel() {
    // Levels: L1 parent, L2 children (internal), L3 leaves. Flush L1→L2.
    Node parent = node(1, 1, 0, 100, C, 1);
    Node one = node(2, 2, 0, 10, 50, 1);
    Node two = node(3, 2, 20, 30, 50, 2);
    Node three = node(4, 2, 40, 50, 50, 3);
    TreeShape shape = new TreeShape(List.of(List.of(parent), List.of(one, two, three), List.of()), 10, C);
    assertEquals(List.of(Action.APPEND, Action.APPEND, Action.APPEND), actions(shape, parent, Mode.lsa()));
    assertEquals(List.of(Action.MERGE, Action.MERGE, Action.MERGE), actions(shape, parent, Mode.lsmMerge()));
    assertEquals(List.of(Action.APPEND, Action.APPEND, Action.APPEND), actions(shape, parent, Mode.iam(3, 1)));
    assertEquals(List.of(Action.MERGE, Action.MERGE, Action.MERGE), actions(shape, parent, Mode.iam(1, 3)));
    // Mixed level 2 with k = 3: only the child with 3 sequences merges (Figure 5).
    assertEquals(List.of(Action.APPEND, Action.APPEND, Action.MERGE), actions(shape, parent, Mode.iam(2, 3)));
    assertEquals(List.of(Action.APPEND, Action.MERGE, Action.MERGE), actions(shape, parent, Mode.iam(2, 2)));
  }

  @Test
  void leafLevelNodesAreNeverFlushed() {
    Node leaf = node(1, 1, 0, 1, C, 1);
    TreeShape shape = new TreeShape(List.of(List.of(leaf)), 10, C);
    assertThrows(IllegalArgumentException.class, () -> FlushPlanner.plan(shape, leaf, Mode.lsa()));
  }

  @Test
  void shapeRejectsOverlappingRanges() {
    assertThrows(IllegalArgumentException.class,
        () -> new TreeShape(List.of(List.of(node(1, 1, 0, 10, 1, 1), node(2, 1, 10, 20, 1, 1))), 10, C));
  }

  private static List<Action> actions(TreeShape shape, Node parent, Mode mode) {
    return FlushPlanner.plan(shape, parent, mode).assignments().stream().map(Assignment::action).toList();
  }
}
