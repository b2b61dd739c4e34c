package io.iam.core.tree.layout;

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
    assertEquals(C / TreePlanner.CUT_DIVISOR, plan.targets().get(0).cutBytes());
    assertEquals(Target.NEW, plan.targets().get(0).node());
  }

  @Test
  void aFullLeafLevelGetsANewLevelAndAFullNodeWithoutChildrenMovesDown() {
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("x", new NodeTag(1, 1, row("a"), row("f"), 1, 1), "a", "f", 120),
        file("y", new NodeTag(2, 1, row("m"), row("z"), 2, 1), "m", "z", 10)));
    NodePlan<String> plan = lsa.next(layout).orElseThrow();
    assertEquals("move", plan.kind());
    assertEquals(2, plan.depth(), "the level added");
    assertEquals(List.of("x"), plan.inputs());
    Target t = plan.targets().get(0);
    assertEquals(1, t.node());
    assertEquals(2, t.level());
    assertFalse(t.markerOnly());
  }
}
