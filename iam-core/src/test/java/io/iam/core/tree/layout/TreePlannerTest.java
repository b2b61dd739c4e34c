package io.iam.core.tree.layout;

import io.iam.core.tree.iam.FlushPlanner;
import static io.iam.core.tree.layout.TreeLayoutTest.file;
import static io.iam.core.tree.layout.TreeLayoutTest.row;
import static io.iam.core.tree.layout.TreeLayoutTest.tag;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.tree.iam.Mode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The translation of the kernel's plans into files to read and nodes to write, without HBase. */
class TreePlannerTest {

  private static final long C = 100;
  private final TreePlanner lsa = new TreePlanner(2, C, d -> Mode.lsa());
  private final TreePlanner merging = new TreePlanner(2, C, d -> Mode.lsmMerge());

  @Test
  void anEmptyStoreHasNoWorkAndFlushesIntoANewLevelOneNode() {
    TreeLayout<String> empty = TreeLayout.of(List.of());
    assertTrue(lsa.next(empty).isEmpty());
    NodePlan<String> route = lsa.flushRoute(empty);
    assertEquals(1, route.targets().size());
    Target t = route.targets().get(0);
    assertEquals(Target.NEW, t.node());
    assertEquals(1, t.level());
    assertNull(t.lower());
    assertNull(t.upper());
  }

  @Test
  void unplacedFilesMoveIntoANewLevelOneNode() {
    TreeLayout<String> layout = TreeLayout.of(List.of(file("old1", null, "c", "k", 10), file("old2", null, "a", "f", 10)));
    NodePlan<String> plan = lsa.next(layout).orElseThrow();
    assertEquals("adopt", plan.kind());
    assertEquals(List.of("old1", "old2"), plan.inputs());
    assertEquals(List.of(new Target(Target.NEW, 1, null, null, null, null, false, 0)).toString(), plan.targets().toString());
  }

  @Test
  void aFlushRoutesRowsByLevelOneNodesWithBoundariesInTheGaps() {
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("x", tag(1, 1, "b", "d", 1), "b", "d", 10),
        file("y", tag(2, 1, "m", "p", 2), "m", "p", 10)));
    List<Target> ts = lsa.flushRoute(layout).targets();
    assertEquals(List.of(1L, 2L), ts.stream().map(Target::node).toList());
    assertNull(ts.get(0).lower());
    assertArrayEquals(row("m"), ts.get(0).upper());
    assertArrayEquals(row("m"), ts.get(1).lower());
    assertNull(ts.get(1).upper());
    assertTrue(ts.get(0).routes(row("a")) && ts.get(0).routes(row("k")) && ts.get(1).routes(row("z")));
  }

  /** Two subtrees: level 1 {1: a-m, 6: n-z}, both full; level 2 {2: a-h full, 3: p-z}; leaves 4, 5 under 2. */
  static TreeLayout<String> twoBusySubtrees() {
    return TreeLayout.of(List.of(
        file("n1a", tag(1, 1, "a", "m", 10), "a", "m", 60),
        file("n1b", tag(1, 1, "a", "m", 11), "b", "l", 60),
        file("n6a", tag(6, 1, "n", "z", 12), "n", "z", 60),
        file("n6b", tag(6, 1, "n", "z", 13), "o", "y", 60),
        file("n2a", tag(2, 2, "a", "h", 5), "a", "h", 70),
        file("n2b", tag(2, 2, "a", "h", 6), "b", "g", 60),
        file("n3", tag(3, 2, "p", "z", 7), "p", "z", 30),
        file("n4", tag(4, 3, "a", "d", 1), "a", "d", 30),
        file("n5", tag(5, 3, "e", "h", 2), "e", "h", 30)));
  }

  @Test
  void aStepBesideARunningOneTakesOnlyNodesItDoesNotHold() {
    TreeLayout<String> layout = twoBusySubtrees();
    NodePlan<String> deep = lsa.next(layout).orElseThrow();
    assertEquals(List.of("n2a", "n2b"), deep.inputs(), "the deepest full node goes first");
    Claim held = lsa.claim(layout, deep);
    assertEquals(java.util.Set.of(2L, 4L, 5L), held.nodes(), "the node and the children it writes");

    NodePlan<String> beside = lsa.next(layout, List.of(held)).orElseThrow();
    assertEquals(List.of("n6a", "n6b"), beside.inputs(), "node 1 flushes into node 2, which is held; node 6 does not");
    Claim second = lsa.claim(layout, beside);
    assertEquals(java.util.Set.of(6L, 3L), second.nodes());
    assertTrue(second.disjoint(held));
    assertTrue(lsa.next(layout, List.of(held, second)).isEmpty(), "node 1's only step needs node 2");
    assertTrue(lsa.next(layout, List.of(Claim.WHOLE)).isEmpty(), "nothing runs beside a step holding the tree");
    assertEquals(deep.inputs(), lsa.next(layout, List.of()).orElseThrow().inputs(), "with nothing running, the usual order");
  }

  @Test
  void besideALevelOneStepDeepStepsKeepTheirTurn() {
    // Level 1 {1: i-m full, 6: n-z fullest}; level 2 {2: a-h full, 9: i-m, 3: p-z}; leaves below.
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("n1", tag(1, 1, "i", "m", 10), "i", "m", 120),
        file("n6a", tag(6, 1, "n", "z", 12), "n", "z", 70),
        file("n6b", tag(6, 1, "n", "z", 13), "o", "y", 70),
        file("n2", tag(2, 2, "a", "h", 5), "a", "h", 130),
        file("n9", tag(9, 2, "i", "m", 6), "i", "m", 30),
        file("n3", tag(3, 2, "p", "z", 7), "p", "z", 30),
        file("n4", tag(4, 3, "a", "d", 1), "a", "d", 30),
        file("n5", tag(5, 3, "e", "h", 2), "e", "h", 30),
        file("n10", tag(10, 3, "i", "m", 8), "i", "m", 30),
        file("n7", tag(7, 3, "p", "s", 3), "p", "s", 30),
        file("n8", tag(8, 3, "t", "z", 4), "t", "z", 30)));
    Claim levelOneStep = new Claim(false, java.util.Set.of(6L, 3L));
    assertEquals(List.of("n2"), lsa.next(layout, List.of(levelOneStep)).orElseThrow().inputs(),
        "beside a level-1 step the deepest full node goes first");
    Claim deepStep = new Claim(false, java.util.Set.of(2L, 4L, 5L));
    assertEquals(List.of("n6a", "n6b"), lsa.next(layout, List.of(deepStep)).orElseThrow().inputs(),
        "beside a deep step level 1 goes first");
  }

  @Test
  void unplacedFilesWaitForRunningStepsAndNewLevelsDoNot() {
    TreeLayout<String> withUnplaced = TreeLayout.of(List.of(
        file("n1", tag(1, 1, "a", "m", 10), "a", "m", 130),
        file("old", null, "c", "k", 10)));
    NodePlan<String> adopt = lsa.next(withUnplaced).orElseThrow();
    assertEquals("adopt", adopt.kind());
    assertTrue(lsa.claim(withUnplaced, adopt).whole(), "adopting unplaced files holds the tree");
    assertTrue(lsa.next(withUnplaced, List.of(new Claim(false, java.util.Set.of(99L)))).isEmpty(),
        "unplaced files wait for running steps to end");

    TreeLayout<String> fullLeafLevel = TreeLayout.of(List.of(
        file("n1", new NodeTag(1, 1, row("a"), row("m"), 10, 1), "a", "m", 130),
        file("n2", new NodeTag(2, 1, row("n"), row("z"), 11, 1), "n", "z", 130)));
    NodePlan<String> grow = lsa.next(fullLeafLevel).orElseThrow();
    assertEquals(2, grow.depth(), "a new level: " + grow);
    Claim growing = lsa.claim(fullLeafLevel, grow);
    assertFalse(growing.whole(), "a step that adds a level holds only its nodes: " + growing);
    NodePlan<String> beside = lsa.next(fullLeafLevel, List.of(growing)).orElseThrow();
    assertTrue(lsa.claim(fullLeafLevel, beside).disjoint(growing), "the other full leaf moves beside it: " + beside);
  }

  @Test
  void aFullInternalNodeFlushesIntoItsChildrenAndStaysAsAMarker() {
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("p1", tag(1, 1, "a", "z", 10), "a", "m", 60),
        file("p2", tag(1, 1, "a", "z", 11), "n", "z", 60),
        file("c1", new NodeTag(2, 2, row("a"), row("h"), 5, 2), "a", "h", 30),
        file("c2", new NodeTag(3, 2, row("p"), row("z"), 6, 2), "p", "z", 30)));
    NodePlan<String> plan = lsa.next(layout).orElseThrow();
    assertEquals("flush", plan.kind());
    assertEquals(List.of("p1", "p2"), plan.inputs(), "an append reads only the parent");
    List<Target> routed = plan.targets().stream().filter(t -> !t.markerOnly()).toList();
    assertEquals(List.of(2L, 3L), routed.stream().map(Target::node).toList());
    assertNull(routed.get(0).lower());
    assertArrayEquals(routed.get(0).upper(), routed.get(1).lower(), "the children's intervals meet");
    assertNull(routed.get(1).upper());
    Target marker = plan.targets().stream().filter(Target::markerOnly).findFirst().orElseThrow();
    assertEquals(1, marker.node());
    assertEquals(1, marker.level());
    assertTrue(marker.keepIfEmpty());
  }

  @Test
  void aMergingTreeAlsoReadsTheChildrenItMergesInto() {
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("p1", tag(1, 1, "a", "z", 10), "a", "z", 120),
        file("c1", new NodeTag(2, 2, row("a"), row("h"), 5, 2), "a", "h", 30),
        file("c2", new NodeTag(3, 2, row("p"), row("z"), 6, 2), "p", "z", 30)));
    NodePlan<String> plan = merging.next(layout).orElseThrow();
    assertEquals(List.of("p1", "c1", "c2"), plan.inputs());
  }

  @Test
  void aLevelOneNodeAppendedToByAFlushIsMergedWhenTheModeMerges() {
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("f1", new NodeTag(1, 1, row("a"), row("z"), 1, 1), "a", "z", 10),
        file("f2", new NodeTag(1, 1, row("a"), row("z"), 2, 1), "b", "y", 10)));
    assertTrue(lsa.next(layout).isEmpty(), "LSA keeps appending");
    NodePlan<String> plan = merging.next(layout).orElseThrow();
    assertEquals("merge", plan.kind());
    assertEquals(List.of("f1", "f2"), plan.inputs());
    assertEquals(1, plan.targets().get(0).node());
  }

  @Test
  void aFullLevelOneLeafIsCutAfterTheNextFlush() {
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("f1", new NodeTag(1, 1, row("a"), row("z"), 1, 1), "a", "z", 110),
        file("f2", new NodeTag(1, 1, row("a"), row("z"), 2, 1), "b", "y", 10)));
    NodePlan<String> plan = lsa.next(layout).orElseThrow();
    assertEquals("cut", plan.kind());
    assertEquals(C / FlushPlanner.CUT_DIVISOR, plan.targets().get(0).cutBytes());
    assertEquals(Target.NEW, plan.targets().get(0).node());
  }

  @Test
  void aFullLeafLevelGetsANewLevelAndAFullNodeWithoutChildrenIsCutIntoNewLeavesBelowIt() {
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("x", new NodeTag(1, 1, row("a"), row("f"), 1, 1), "a", "f", 120),
        file("y", new NodeTag(2, 1, row("m"), row("z"), 2, 1), "m", "z", 10)));
    NodePlan<String> plan = lsa.next(layout).orElseThrow();
    assertEquals(TreePlanner.NEW_LEAVES, plan.kind());
    assertEquals(2, plan.depth(), "the level added");
    assertEquals(List.of("x"), plan.inputs());
    Target leaves = plan.targets().get(0);
    assertEquals(Target.NEW, leaves.node());
    assertEquals(2, leaves.level());
    assertEquals(C / TreePlanner.NEW_LEAF_DIVISOR, leaves.cutBytes());
    assertFalse(leaves.markerOnly());
    Target stays = plan.targets().get(1);
    assertEquals(1, stays.node(), "the node stays on its level, emptied");
    assertEquals(1, stays.level());
    assertTrue(stays.markerOnly());
    assertEquals(2, plan.targets().size());
  }

  @Test
  void aLeafLevelHoldingHalfItsNodesBytesGetsItsNewLevelBeforeLevelOneFlushesIntoIt() {
    // t = 2: level 2 is full at t^2 = 4 nodes, or at t^2 × C_t / 2 = 200 bytes; it has two leaves.
    // Level 1's node 1 is full, level 2's node 2 too.
    for (long second : new long[] {80, 89, 90, 150}) {
      TreeLayout<String> layout = TreeLayout.of(List.of(
          file("x", new NodeTag(1, 1, row("a"), row("z"), 3, 2), "a", "z", 120),
          file("b", new NodeTag(2, 2, row("a"), row("m"), 1, 2), "a", "m", 110),
          file("c", new NodeTag(3, 2, row("n"), row("z"), 2, 2), "n", "z", second)));
      NodePlan<String> plan = lsa.next(layout).orElseThrow();
      if (110 + second >= 2 * 2 * C / TreePlanner.LEAF_LEVEL_FULL_DIVISOR) {
        assertEquals(TreePlanner.NEW_LEAVES, plan.kind(), second + " bytes in leaf 3");
        assertEquals(3, plan.depth(), "the level added");
        assertEquals(List.of(second > 110 ? "c" : "b"), plan.inputs(), "the fullest leaf goes down, not level 1's node");
      } else {
        assertEquals(2, plan.depth(), second + " bytes in leaf 3: " + plan.kind());
        assertTrue(plan.inputs().contains("x"), "level 1's full node flushes into the leaves");
      }
    }
  }

  @Test
  void aFullInternalNodeWithoutChildrenKeepsItsPlaceAndCutsItsRowsIntoNewNodesBelow() {
    // Level 1 {1: a-z, emptied}; level 2 {2: a-m full, no children; 3: n-z}; level 3 {4: n-z}.
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("m1", tag(1, 1, "a", "z", 1), null, null, 0),
        file("b", tag(2, 2, "a", "m", 2), "a", "m", 120),
        file("c", tag(3, 2, "n", "z", 3), "n", "z", 10),
        file("d", tag(4, 3, "n", "z", 4), "n", "z", 10)));
    NodePlan<String> plan = lsa.next(layout).orElseThrow();
    assertEquals(TreePlanner.NEW_LEAVES, plan.kind());
    assertEquals(List.of("b"), plan.inputs());
    assertEquals(3, plan.depth(), "no level added");
    Target leaves = plan.targets().get(0);
    assertEquals(Target.NEW, leaves.node());
    assertEquals(3, leaves.level());
    assertEquals(C / TreePlanner.NEW_LEAF_DIVISOR, leaves.cutBytes());
    assertTrue(leaves.routes(row("a")) && leaves.routes(row("m")));
    Target stays = plan.targets().get(1);
    assertEquals(2, stays.node(), "node 2 stays on level 2, emptied, with its range");
    assertEquals(2, stays.level());
    assertTrue(stays.markerOnly());
    assertArrayEquals(row("a"), stays.lo());
    assertArrayEquals(row("m"), stays.hi());
  }

  @Test
  void aLevelOneNodeAtTwiceItsCapacityMakesFlushesWaitUntilItsStepRuns() {
    // Level 1 internal over level 2; the level-1 node grows from C_t to 2 C_t with each flush.
    for (long bytes : new long[] {60, 100, 150, 199, 200, 260}) {
      TreeLayout<String> layout = TreeLayout.of(List.of(
          file("p1", tag(1, 1, "a", "z", 10), "a", "z", bytes),
          file("c1", new NodeTag(2, 2, row("a"), row("h"), 5, 2), "a", "h", 30),
          file("c2", new NodeTag(3, 2, row("p"), row("z"), 6, 2), "p", "z", 30)));
      Backlog b = lsa.backlog(layout);
      assertEquals(bytes >= C, b.pending(), bytes + " bytes: a full node has a step");
      assertEquals(bytes >= 2 * C, b.flushMustWait(), bytes + " bytes: flushes wait at 2 C_t");
      assertEquals(Math.max(0.0, bytes / (double) C - 1), b.levelOnePressure(), 1e-9, bytes + " bytes");
    }
  }

  @Test
  void aNodeAtTheHardLimitDoesNotHoldFlushesWhenTheTreeHasNoStepForIt() {
    // An LSA leaf level of one node that a single large flush filled: nothing to merge with yet,
    // and waiting would never end, so flushes go on.
    TreeLayout<String> layout = TreeLayout.of(List.of(file("big", tag(1, 1, "a", "z", 1), "a", "z", 250)));
    Backlog b = lsa.backlog(layout);
    assertEquals(lsa.next(layout).isPresent(), b.pending());
    assertEquals(b.pending(), b.flushMustWait());
    assertEquals(Backlog.SETTLED, lsa.backlog(TreeLayout.<String>of(List.of())));
  }

  @Test
  void levelOneHalfwayToItsHardLimitGoesBeforeADeeperFullNode() {
    // Level 1: node 1 over [a, m] (filling) and node 7 over [n, z]; level 2: node 8 under node 7 is
    // full; level 3: leaves.
    for (long levelOne : new long[] {120, 149, 150, 180}) {
      TreeLayout<String> layout = TreeLayout.of(List.of(
          file("l1", new NodeTag(1, 1, row("a"), row("m"), 10, 3), "a", "m", levelOne),
          file("l1b", new NodeTag(7, 1, row("n"), row("z"), 11, 3), "n", "z", 10),
          file("l2a", new NodeTag(2, 2, row("a"), row("h"), 5, 3), "a", "h", 10),
          file("l2b", new NodeTag(3, 2, row("i"), row("m"), 6, 3), "i", "m", 10),
          file("l2full", new NodeTag(8, 2, row("n"), row("z"), 7, 3), "n", "z", 110),
          file("l3a", new NodeTag(4, 3, row("a"), row("d"), 3, 3), "a", "d", 40),
          file("l3b", new NodeTag(5, 3, row("e"), row("h"), 4, 3), "e", "h", 40),
          file("l3c", new NodeTag(6, 3, row("i"), row("m"), 2, 3), "i", "m", 40),
          file("l3d", new NodeTag(9, 3, row("n"), row("z"), 1, 3), "n", "z", 40)));
      NodePlan<String> plan = lsa.next(layout).orElseThrow();
      // Below 1.5 C_t the deeper full node goes first, as in the embedded engine; from there, level 1.
      List<String> expected = levelOne >= 150 ? List.of("l1") : List.of("l2full");
      assertEquals(expected, plan.inputs(), levelOne + " bytes at level 1: " + plan.kind());
    }
  }

  @Test
  void onceLevelOneIsInternalAFlushWritesOneFileSharedByItsNodes() throws Exception {
    TreeLayout<String> layout = twoBusySubtrees();
    NodePlan<String> route = lsa.flushRoute(layout);
    assertTrue(route.shared(), route.kind());
    assertEquals(List.of(1L, 6L), route.targets().stream().map(Target::node).toList());
    assertFalse(merging.flushRoute(layout).shared(), "a merging level 1 keeps one file per node");
    NodeRouter<List<String>> router = new NodeRouter<>(route, () -> 100, (t, p) -> new java.util.ArrayList<>());
    for (String r : List.of("a", "c", "n", "q", "z")) {
      router.startRow(row(r)).writer().add(r);
      router.addCell(10);
    }
    List<NodeRouter.Output<List<String>>> outs = router.commit();
    assertEquals(1, outs.size(), "one file");
    assertEquals(List.of("a", "c", "n", "q", "z"), outs.get(0).writer());
    assertEquals(new Slices(new long[] {1, 6}, new long[] {20, 30}), router.slicesOf(outs.get(0)));
    NodeTag t = router.tagOf(outs.get(0));
    assertEquals(1, t.level());
    assertArrayEquals(row("a"), t.lo());
    assertArrayEquals(row("z"), t.hi());
  }

  @Test
  void levelOneWithSharedFilesEmptiesAsAWholeIntoLevelTwo() {
    // Level 1 {1: a-m, 6: n-z}, each 120 bytes of its own and 50 of a shared file; level 2
    // {2: a-h, 3: p-z}, not full; leaves 4, 5 under 2.
    List<Sequence<String>> files = new java.util.ArrayList<>(List.of(
        file("n1a", tag(1, 1, "a", "m", 10), "a", "m", 60),
        file("n1b", tag(1, 1, "a", "m", 11), "b", "l", 60),
        file("n6a", tag(6, 1, "n", "z", 12), "n", "z", 60),
        file("n6b", tag(6, 1, "n", "z", 13), "o", "y", 60),
        file("n2", tag(2, 2, "a", "h", 5), "a", "h", 40),
        file("n3", tag(3, 2, "p", "z", 7), "p", "z", 30),
        file("n4", tag(4, 3, "a", "d", 1), "a", "d", 30),
        file("n5", tag(5, 3, "e", "h", 2), "e", "h", 30)));
    files.add(new Sequence<>("s", tag(60, 1, "a", "z", 14), row("a"), row("z"), 100,
        new Slices(new long[] {1, 6}, new long[] {50, 50})));
    TreeLayout<String> layout = TreeLayout.of(files);
    assertEquals(170, layout.node(1).bytes());
    NodePlan<String> plan = lsa.next(layout).orElseThrow();
    assertEquals("level 1", plan.kind(), "level 1 at 1.7 C_t goes first, as a whole");
    assertTrue(plan.inputs().containsAll(List.of("n1a", "n1b", "n6a", "n6b", "s")), plan.inputs().toString());
    for (char c = 'a'; c <= 'z'; c++) {
      byte[] r = row(String.valueOf(c));
      assertEquals(1, plan.targets().stream().filter(t -> !t.markerOnly() && t.routes(r)).count(),
          "row " + c + " goes to one target: " + plan.targets());
    }
    assertEquals(java.util.Set.of(1L, 6L), plan.targets().stream().filter(Target::markerOnly).map(Target::node)
        .collect(java.util.stream.Collectors.toSet()), "both level-1 nodes stay, emptied");
    assertTrue(plan.targets().stream().filter(t -> !t.markerOnly()).allMatch(t -> t.level() == 2));
    assertTrue(lsa.claim(layout, plan).nodes().containsAll(List.of(1L, 6L, 2L, 3L)));
    assertTrue(lsa.next(layout, List.of(new Claim(false, java.util.Set.of(2L)))).map(p -> !p.inputs().contains("s"))
        .orElse(true), "it cannot run beside a step holding a level-2 node");
  }

  @Test
  void aLevelOneNodeDueASplitIsReplacedByItsTwoEmptyHalvesWhenLevelOneEmpties() {
    // Fanout 2: node 1 covers 2t = 4 children, so the kernel splits it when it flushes.
    List<Sequence<String>> files = new java.util.ArrayList<>(List.of(
        file("n1", new NodeTag(1, 1, row("a"), row("z"), 10, 2), "b", "y", 60)));
    String[] ranges = {"a", "e", "f", "j", "k", "o", "p", "z"};
    for (int i = 0; i < 4; i++) {
      files.add(file("c" + i, new NodeTag(2 + i, 2, row(ranges[2 * i]), row(ranges[2 * i + 1]), 1 + i, 2),
          ranges[2 * i], ranges[2 * i + 1], 20));
    }
    files.add(new Sequence<>("s", new NodeTag(60, 1, row("a"), row("z"), 11, 2), row("a"), row("z"), 50,
        new Slices(new long[] {1}, new long[] {50})));
    TreeLayout<String> layout = TreeLayout.of(files);
    NodePlan<String> plan = lsa.next(layout).orElseThrow();
    assertEquals("level 1", plan.kind());
    assertTrue(plan.inputs().containsAll(List.of("n1", "s")), plan.inputs().toString());
    List<Target> markers = plan.targets().stream().filter(Target::markerOnly).toList();
    assertEquals(2, markers.size(), "two halves, no marker for node 1: " + plan.targets());
    assertTrue(markers.stream().allMatch(t -> t.node() == Target.NEW && t.level() == 1));
    assertArrayEquals(row("a"), markers.get(0).lo());
    assertArrayEquals(row("z"), markers.get(1).hi());
    assertTrue(Rows.compare(markers.get(0).hi(), markers.get(1).lo()) < 0, "disjoint halves");
    assertEquals(4, plan.targets().stream().filter(t -> !t.markerOnly() && t.level() == 2).count(),
        "the rows go to the four children");
  }
}
