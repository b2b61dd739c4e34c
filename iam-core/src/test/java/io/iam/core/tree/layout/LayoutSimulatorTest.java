package io.iam.core.tree.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.tree.iam.Mode;
import io.iam.core.tree.layout.LayoutSimulator.Row;
import io.iam.core.tree.layout.LayoutSimulator.SimFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The file-tree simulator: many flushes of scattered rows build several levels in every mode,
 * every row written is in the tree exactly once with its newest version, every file lies inside
 * its node, and the same rows always give the same tree.
 */
class LayoutSimulatorTest {

  private static final long ROW_BYTES = 100;
  private static final int ROWS_PER_FLUSH = 30;
  private static final long CAPACITY = 8_000; // about 2.7 flushes

  private static byte[] key(long n) {
    return String.format("row-%08x", (int) (n * 2654435761L)).getBytes(StandardCharsets.US_ASCII);
  }

  private static LayoutSimulator simulator(Function<long[], Mode> modes) {
    return new LayoutSimulator(() -> new TreePlanner(3, CAPACITY, modes));
  }

  /** Flushes {@code flushes} batches, re-writing every 7th row once; returns the newest bytes by key. */
  private static Map<String, Long> load(LayoutSimulator sim, int flushes) {
    Map<String, Long> model = new TreeMap<>();
    long n = 0;
    for (int f = 0; f < flushes; f++) {
      List<Row> batch = new ArrayList<>();
      for (int i = 0; i < ROWS_PER_FLUSH; i++, n++) {
        long size = ROW_BYTES + (n % 3);
        batch.add(new Row(key(n), size));
        model.put(new String(key(n), StandardCharsets.US_ASCII), size);
      }
      if (f > 0) {
        long again = (f - 1) * ROWS_PER_FLUSH; // a row of the previous flush, now with a new size
        batch.add(new Row(key(again), ROW_BYTES * 2));
        model.put(new String(key(again), StandardCharsets.US_ASCII), ROW_BYTES * 2);
      }
      sim.flush(batch);
    }
    return model;
  }

  private static void assertHolds(LayoutSimulator sim, Map<String, Long> model) {
    TreeLayout<SimFile> layout = sim.layout();
    assertEquals(List.of(), layout.unplaced(), "a settled tree places every file");
    Map<String, Long> found = new TreeMap<>();
    for (int i = 1; i <= layout.depth(); i++) {
      for (TreeLayout.NodeView<SimFile> node : layout.level(i)) {
        for (Sequence<SimFile> s : node.files()) {
          long bytes = 0;
          for (Row r : s.file().rows()) {
            assertTrue(Rows.atMost(node.lo(), r.key()) && Rows.atMost(r.key(), node.hi()),
                "row inside node " + node.id() + "\n" + layout);
            bytes += r.bytes();
            String k = new String(r.key(), StandardCharsets.US_ASCII);
            // Several levels may hold a row; the newest file's version is the one a read returns.
            found.merge(k, r.bytes(), (old, now) -> now);
          }
          assertEquals(s.bytes(), bytes, "a sequence's bytes are its rows' bytes");
        }
      }
    }
    for (Sequence<SimFile> s : layout.shared()) {
      long bytes = 0;
      for (Row r : s.file().rows()) {
        bytes += r.bytes();
        found.merge(new String(r.key(), StandardCharsets.US_ASCII), r.bytes(), (old, now) -> now);
      }
      assertEquals(s.bytes(), bytes, "a shared file's bytes are its rows' bytes");
      assertEquals(bytes, java.util.Arrays.stream(s.slices().bytes()).sum(), "its slices share all its bytes");
    }
    assertEquals(model.keySet(), found.keySet(), "every row written is in the tree");
  }

  @Test
  void everyModeBuildsSeveralLevelsAndKeepsEveryRow() {
    for (Function<long[], Mode> modes : List.<Function<long[], Mode>>of(d -> Mode.lsa(), d -> Mode.lsmMerge(),
        d -> Mode.iam(2, 2))) {
      LayoutSimulator sim = simulator(modes);
      Map<String, Long> model = load(sim, 40);
      assertTrue(sim.layout().depth() >= 2, "levels:\n" + sim.layout());
      assertTrue(sim.bytesCompacted() > 0, "tree steps wrote bytes");
      assertTrue(sim.steps().size() > 10, "steps: " + sim.steps());
      assertEquals(modes.apply(new long[0]).maxSequences(1) == Integer.MAX_VALUE, sim.steps().contains("level 1"),
          "level 1 appends, so memstore flushes share files and level 1 empties as a whole: " + sim.steps());
      assertHolds(sim, model);
      assertTrue(sim.planner().next(sim.layout()).isEmpty(), "settled");
    }
  }

  @Test
  void stepsSideBySideOnDisjointNodesKeepEveryRowAndSettle() {
    for (Function<long[], Mode> modes : List.<Function<long[], Mode>>of(d -> Mode.lsa(), d -> Mode.lsmMerge(),
        d -> Mode.iam(2, 2))) {
      LayoutSimulator sim = new LayoutSimulator(() -> new TreePlanner(3, CAPACITY, modes), true);
      Map<String, Long> model = load(sim, 300);
      assertTrue(sim.layout().depth() >= 3, "levels:\n" + sim.layout());
      assertTrue(sim.steps().contains(TreePlanner.NEW_LEAVES), "full nodes without children cut into new nodes: " + sim.steps());
      assertTrue(sim.stepsBeside() > 20, "steps run beside another: " + sim.stepsBeside());
      assertEquals(modes.apply(new long[0]).maxSequences(1) == Integer.MAX_VALUE, sim.steps().contains("level 1"),
          "level 1 appends, so memstore flushes share files and level 1 empties as a whole: " + sim.steps());
      assertHolds(sim, model);
      assertTrue(sim.planner().next(sim.layout()).isEmpty(), "settled");
    }
  }

  @Test
  void lsaAppendsWhereMergingRewrites() {
    LayoutSimulator lsa = simulator(d -> Mode.lsa());
    LayoutSimulator merge = simulator(d -> Mode.lsmMerge());
    load(lsa, 40);
    load(merge, 40);
    assertEquals(lsa.bytesFlushed(), merge.bytesFlushed());
    assertTrue(lsa.bytesCompacted() < merge.bytesCompacted(),
        "lsa " + lsa.bytesCompacted() + " vs lsm-merge " + merge.bytesCompacted());
    int lsaMaxSequences = 0;
    for (int i = 1; i <= lsa.layout().depth(); i++) {
      for (TreeLayout.NodeView<SimFile> n : lsa.layout().level(i)) {
        lsaMaxSequences = Math.max(lsaMaxSequences, n.sequences());
      }
    }
    assertTrue(lsaMaxSequences >= 2, "lsa nodes hold several sequences:\n" + lsa.layout());
  }

  @Test
  void theSameRowsGiveTheSameTree() {
    LayoutSimulator a = simulator(d -> Mode.iam(2, 2));
    LayoutSimulator b = simulator(d -> Mode.iam(2, 2));
    load(a, 25);
    load(b, 25);
    assertEquals(a.steps(), b.steps());
    assertEquals(a.layout().toString(), b.layout().toString());
  }

  @Test
  void aRowWrittenAgainKeepsItsNewestVersionWhenMerged() {
    LayoutSimulator sim = simulator(d -> Mode.lsmMerge());
    Map<String, Long> model = load(sim, 30);
    // lsm-merge merges every flush into level 1, so level 1 holds one sequence with the newest versions.
    TreeLayout.NodeView<SimFile> first = sim.layout().level(1).get(0);
    assertEquals(1, first.sequences(), sim.layout().toString());
    for (Row r : first.dataFiles().get(0).file().rows()) {
      assertEquals(model.get(new String(r.key(), StandardCharsets.US_ASCII)), r.bytes(), "newest version");
    }
  }

  @Test
  void routerCutsAtRowBoundariesAndDrawsStampsInOrder() throws Exception {
    long[] stamps = {10};
    Target cut = new Target(Target.NEW, 2, null, null, null, null, false, 250);
    Target marker = Target.marker(4, 1, Rows.OPEN, Rows.OPEN);
    NodeRouter<List<byte[]>> router = new NodeRouter<>(List.of(cut, marker), 2, () -> ++stamps[0],
        (t, piece) -> new ArrayList<>());
    for (int i = 0; i < 7; i++) {
      byte[] row = ("r" + i).getBytes(StandardCharsets.US_ASCII);
      router.startRow(row).writer().add(row);
      router.addCell(100);
    }
    List<NodeRouter.Output<List<byte[]>>> outs = router.commit();
    assertEquals(List.of(300L, 300L, 100L, 0L), outs.stream().map(NodeRouter.Output::bytes).toList(),
        "pieces cut once they hold 250 bytes, then the marker");
    assertEquals(11, stamps[0], "the epoch is drawn at commit");
    List<Long> nodes = outs.stream().map(o -> router.tagOf(o).node()).toList();
    assertEquals(List.of(12L, 13L, 14L, 4L), nodes, "new nodes draw ids in output order");
    assertArrayEquals("r3".getBytes(StandardCharsets.US_ASCII), router.tagOf(outs.get(1)).lo());
    assertEquals(11, router.tagOf(outs.get(3)).epoch());
    assertThrows(IllegalStateException.class,
        () -> new NodeRouter<List<byte[]>>(List.of(cut), 1, () -> 1, (t, p) -> new ArrayList<>()).tagOf(outs.get(0)));
  }
}
