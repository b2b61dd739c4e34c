package io.iam.core.tree.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tags' file-info encoding and the tree rebuilt from tags alone, without HBase. */
class TreeLayoutTest {

  static byte[] row(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  static Sequence<String> file(String name, NodeTag tag, String first, String last, long bytes) {
    return new Sequence<>(name, tag, first == null ? null : row(first), last == null ? null : row(last), bytes);
  }

  static NodeTag tag(long node, int level, String lo, String hi, long epoch) {
    return new NodeTag(node, level, row(lo), row(hi), epoch, 3);
  }

  @Test
  void tagsRoundTripThroughFileInfoIncludingOpenEnds() {
    NodeTag closed = tag(7, 2, "b", "m", 42);
    NodeTag open = new NodeTag(9, 1, Rows.OPEN, Rows.OPEN, 43, 1);
    for (NodeTag t : List.of(closed, open)) {
      Map<String, byte[]> info = new HashMap<>();
      t.toFileInfo().forEach((k, v) -> info.put(new String(k, StandardCharsets.US_ASCII), v));
      NodeTag back = NodeTag.read(k -> info.get(new String(k, StandardCharsets.US_ASCII))).orElseThrow();
      assertEquals(t, back);
    }
    assertArrayEquals(Rows.OPEN, open.lo());
  }

  @Test
  void incompleteOrMalformedTagsReadAsUnplaced() {
    Map<String, byte[]> info = new HashMap<>();
    tag(7, 2, "b", "m", 42).toFileInfo().forEach((k, v) -> info.put(new String(k, StandardCharsets.US_ASCII), v));
    info.remove("IAM_EPOCH");
    assertEquals(Optional.empty(), NodeTag.read(k -> info.get(new String(k, StandardCharsets.US_ASCII))));
    Map<String, byte[]> reversed = new HashMap<>();
    tag(7, 2, "b", "m", 42).toFileInfo().forEach((k, v) -> reversed.put(new String(k, StandardCharsets.US_ASCII), v));
    reversed.put("IAM_LO", row("z")); // lo > hi
    assertEquals(Optional.empty(), NodeTag.read(k -> reversed.get(new String(k, StandardCharsets.US_ASCII))));
    assertEquals(Optional.empty(), NodeTag.read(k -> null));
  }

  @Test
  void nodesTakeLevelAndRangeFromTheirNewestFile() {
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("a1", tag(1, 1, "a", "f", 10), "a", "e", 100),
        file("a2", tag(1, 2, "a", "k", 12), null, null, 0), // a marker moving node 1 to level 2
        file("b1", tag(2, 1, "g", "p", 11), "g", "p", 50),
        file("c1", tag(3, 2, "m", "z", 9), "m", "z", 70),
        file("legacy", null, "c", "x", 30)));
    assertEquals(List.of(2L), layout.level(1).stream().map(TreeLayout.NodeView::id).toList());
    assertEquals(List.of(1L, 3L), layout.level(2).stream().map(TreeLayout.NodeView::id).toList());
    TreeLayout.NodeView<String> moved = layout.node(1);
    assertArrayEquals(row("k"), moved.hi());
    assertEquals(1, moved.sequences());
    assertEquals(100, moved.bytes());
    assertEquals(List.of("legacy"), layout.unplaced().stream().map(Sequence::file).toList());
    assertEquals(12, layout.largestStamp());
    assertEquals(3, layout.depth(), "the depth the tags record");
    assertTrue(layout.level(3).isEmpty());
  }

  @Test
  void overlappingNodesOfALevelKeepTheNewerAndUnplaceTheOlder() {
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("old", tag(1, 1, "a", "m", 5), "a", "m", 10),
        file("new", tag(2, 1, "k", "z", 6), "k", "z", 10)));
    assertEquals(List.of(2L), layout.level(1).stream().map(TreeLayout.NodeView::id).toList());
    assertEquals(List.of("old"), layout.unplaced().stream().map(Sequence::file).toList());
  }

  @Test
  void aLevelOfManyNodesKeepsExactlyTheNewerOfEveryOverlappingPair() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(7);
    for (int round = 0; round < 200; round++) {
      List<Sequence<String>> files = new ArrayList<>();
      int nodes = 1 + random.nextInt(60);
      for (int i = 0; i < nodes; i++) {
        int a = random.nextInt(1000);
        int b = a + random.nextInt(40);
        String lo = random.nextInt(30) == 0 ? "" : String.format("%04d", a);
        String hi = random.nextInt(30) == 0 ? "" : String.format("%04d", b);
        files.add(file("n" + i, tag(i + 1, 1, lo, hi, random.nextInt(1_000_000)), null, null, 0));
      }
      // The rule, node by node: newest first, a node keeps its place unless it overlaps one kept.
      List<Sequence<String>> newestFirst = new java.util.ArrayList<>(files);
      newestFirst.sort(java.util.Comparator.comparingLong((Sequence<String> f) -> f.tag().epoch()).reversed()
          .thenComparingLong(f -> f.tag().node()));
      List<Sequence<String>> kept = new java.util.ArrayList<>();
      for (Sequence<String> f : newestFirst) {
        if (kept.stream().noneMatch(k -> Rows.overlaps(k.tag().lo(), k.tag().hi(), f.tag().lo(), f.tag().hi()))) {
          kept.add(f);
        }
      }
      kept.sort((x, y) -> Rows.compareLo(x.tag().lo(), y.tag().lo()));
      TreeLayout<String> layout = TreeLayout.of(files);
      assertEquals(kept.stream().map(f -> f.tag().node()).toList(),
          layout.level(1).stream().map(TreeLayout.NodeView::id).toList(), "round " + round);
      assertEquals(files.size() - kept.size(), layout.unplaced().size(), "round " + round);
    }
  }

  @Test
  void readsOpenOnlyFilesHoldingRowsOfTheRangePlusOverlappingUnplacedOnes() {
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("left", tag(1, 1, "a", "f", 1), "a", "f", 10),
        file("right", tag(2, 1, "g", "p", 2), "h", "p", 10),
        file("deep", tag(3, 2, "a", "z", 3), "b", "y", 10),
        file("marker", tag(4, 2, "zz", "zzz", 4), null, null, 0),
        file("unplaced", null, "q", "r", 10)));
    assertEquals(List.of("right", "deep"), layout.filesFor(row("i"), row("j")));
    assertEquals(List.of("left", "deep"), layout.filesFor(row("c"), row("c")));
    assertEquals(List.of("right", "deep", "unplaced"), layout.filesFor(row("p"), row("q")));
    assertEquals(List.of("left", "right", "deep", "unplaced"), layout.filesFor(Rows.OPEN, Rows.OPEN));
  }

  @Test
  void readsFindTheFilesAScanOfEveryNodeFindsInLargeTreesWithGaps() {
    Random random = new Random(7);
    for (int round = 0; round < 20; round++) {
      List<Sequence<String>> files = new ArrayList<>();
      long id = 0;
      for (int level = 1; level <= 3; level++) {
        // Nodes over disjoint ranges of k0000..k9999 with gaps; the first and last sometimes open.
        int at = 0;
        while (at < 10_000) {
          int lo = at + random.nextInt(3);
          int hi = Math.min(9_999, lo + random.nextInt(400));
          String loKey = level == 1 && lo < 3 ? "" : key(lo);
          String hiKey = hi == 9_999 && random.nextBoolean() ? "" : key(hi);
          id++;
          int sequences = random.nextInt(4);
          files.add(file("m" + id, tag(id, level, loKey, hiKey, id), null, null, 0));
          for (int q = 0; q < sequences; q++) {
            int first = lo + random.nextInt(hi - lo + 1);
            int last = first + random.nextInt(hi - first + 1);
            files.add(file("n" + id + "s" + q, tag(id, level, loKey, hiKey, id), key(first), key(last), 10));
          }
          at = hi + 1;
        }
      }
      files.add(file("loose", null, key(random.nextInt(5_000)), key(5_000 + random.nextInt(5_000)), 10));
      TreeLayout<String> layout = TreeLayout.of(files);
      for (int read = 0; read < 200; read++) {
        int a = random.nextInt(10_000);
        int b = read % 4 == 0 ? a : Math.min(9_999, a + random.nextInt(50));
        byte[] start = read % 17 == 0 ? Rows.OPEN : row(key(a));
        byte[] stop = read % 17 == 0 ? Rows.OPEN : row(key(b));
        List<String> scanned = new ArrayList<>();
        for (int i = 1; i <= layout.depth(); i++) {
          for (TreeLayout.NodeView<String> n : layout.level(i)) {
            n.files().stream().filter(f -> !f.isMarker() && Rows.overlaps(f.first(), f.last(), start, stop))
                .forEach(f -> scanned.add(f.file()));
          }
        }
        layout.unplaced().stream().filter(f -> Rows.overlaps(f.first(), f.last(), start, stop))
            .forEach(f -> scanned.add(f.file()));
        assertEquals(scanned, layout.filesFor(start, stop), "round " + round + ", read " + read);
      }
    }
  }

  private static String key(int i) {
    return String.format("k%04d", i);
  }

  @Test
  void aFileWrittenForANodeBeforeANewerMarkerShrankItIsUnplaced() {
    // Node 1 held [a, z]; a step emptied it and shrank it to [a, m] (marker, epoch 9) while a
    // memstore flush wrote rows c..x for the node as it was (epoch 8).
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("marker", tag(1, 1, "a", "m", 9), null, null, 0),
        file("raced", tag(1, 1, "a", "z", 8), "c", "x", 10),
        file("inside", tag(1, 1, "a", "z", 7), "b", "k", 10)));
    TreeLayout.NodeView<String> n = layout.node(1);
    assertEquals(List.of("inside", "marker"), n.files().stream().map(Sequence::file).toList());
    assertEquals(List.of("raced"), layout.unplaced().stream().map(Sequence::file).toList());
    assertEquals(List.of("inside", "raced"), layout.filesFor(row("d"), row("d")), "reads still see it");
  }

  @Test
  void sharedFlushFilesCountAsASliceOfEveryLevelOneNodeTheyName() {
    Sequence<String> shared = new Sequence<>("s", tag(50, 1, "a", "z", 9), row("a"), row("z"), 50,
        new Slices(new long[] {1, 2}, new long[] {30, 20}));
    Sequence<String> orphan = new Sequence<>("o", tag(51, 1, "a", "z", 10), row("a"), row("z"), 5,
        new Slices(new long[] {77}, new long[] {5}));
    TreeLayout<String> layout = TreeLayout.of(List.of(
        file("x", tag(1, 1, "b", "d", 1), "b", "d", 10),
        file("y", tag(2, 1, "m", "p", 2), "m", "p", 10),
        file("leaf", tag(3, 2, "a", "z", 3), "a", "z", 100),
        shared, orphan));
    assertEquals(List.of(shared), layout.shared());
    assertEquals(List.of(orphan), layout.unplaced(), "a shared file naming no level-1 node is unplaced");
    assertEquals(40, layout.node(1).bytes(), "its own file and its slice");
    assertEquals(2, layout.node(1).sequences());
    assertEquals(List.of("x"), layout.node(1).files().stream().map(Sequence::file).toList(), "not among its files");
    assertEquals(30, layout.node(2).bytes());
    assertEquals(List.of(40L + 30L, 100L, 0L), java.util.Arrays.stream(layout.levelBytes()).boxed().toList());
    assertEquals(List.of("leaf", "s", "o"), layout.filesFor(row("f"), row("g")), "reads see shared files");
    assertEquals(3, layout.fileCount(1), "x, y and the shared file");
    assertEquals(1, layout.fileCount(2));
    assertEquals(51, layout.largestStamp());
  }

  @Test
  void slicesRoundTripAndAMalformedValueIsNoSlices() {
    Slices slices = new Slices(new long[] {4, 9}, new long[] {100, 0});
    assertEquals(slices, Slices.decode(slices.encode()));
    assertEquals(100, slices.bytesOf(4));
    assertEquals(0, slices.bytesOf(5));
    assertEquals(null, Slices.decode(null));
    assertEquals(null, Slices.decode(new byte[15]));
    assertEquals(null, Slices.decode(java.nio.ByteBuffer.allocate(16).putLong(1).putLong(-3).array()));
  }
}
