package io.iam.core.tree.layout;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The IAM/LSA tree a store's files form: levels 1..depth of nodes with disjoint, sorted inclusive
 * row ranges, each node holding its sequences (files), plus the unplaced files. Rebuilt from the
 * files' {@link NodeTag}s alone, so the same files always give the same tree. Immutable.
 *
 * <p>Rules: a node's level and range come from its file with the newest epoch. A file whose rows
 * lie outside that range is unplaced (a memstore flush written for the node before a step that
 * raced it shrank the node). Nodes of a level must not overlap; if two do (a flush and a compaction
 * that raced), the node with the newer epoch keeps its place and the other's files become unplaced. Untagged files are unplaced. Unplaced
 * files lose nothing: reads always include them, and the next compaction writes them into the
 * tree. The depth is the largest level or depth any tag records.
 *
 * <p>Shared flush files ({@link Slices}) belong to level 1 as a whole: each level-1 node counts its
 * slice of every one as bytes and, if the slice holds rows, as a sequence; they are not among its
 * {@link NodeView#files()}. A shared file naming no level-1 node of the tree is unplaced.
 *
 * @param <F> the file type
 */
public final class TreeLayout<F> {

  /**
   * One node and its own files, oldest epoch first, plus the bytes and sequences of its slices of
   * level 1's shared flush files.
   */
  public record NodeView<F>(long id, int level, byte[] lo, byte[] hi, long epoch, List<Sequence<F>> files,
      long sharedBytes, int sharedSequences) {

    /** Bytes of its data files (markers count 0) and of its shared slices. */
    public long bytes() {
      return sharedBytes + files.stream().mapToLong(s -> s.isMarker() ? 0 : s.bytes()).sum();
    }

    /** Its sorted sequences: files holding cells, and shared slices holding rows. */
    public int sequences() {
      return sharedSequences + (int) files.stream().filter(s -> !s.isMarker()).count();
    }

    /** The files holding cells, oldest epoch first. */
    public List<Sequence<F>> dataFiles() {
      return files.stream().filter(s -> !s.isMarker()).toList();
    }
  }

  private final List<List<NodeView<F>>> levels;
  private final List<Sequence<F>> unplaced;
  private final List<Sequence<F>> shared;
  private final int depth;
  private final long largestStamp;

  private TreeLayout(List<List<NodeView<F>>> levels, List<Sequence<F>> unplaced, List<Sequence<F>> shared, int depth,
      long largestStamp) {
    this.levels = levels;
    this.unplaced = unplaced;
    this.shared = shared;
    this.depth = depth;
    this.largestStamp = largestStamp;
  }

  /** The tree of {@code files}. */
  public static <F> TreeLayout<F> of(Collection<Sequence<F>> files) {
    List<Sequence<F>> unplaced = new ArrayList<>();
    List<Sequence<F>> shared = new ArrayList<>();
    Map<Long, List<Sequence<F>>> byNode = new LinkedHashMap<>();
    int depth = 0;
    long stamp = 0;
    for (Sequence<F> s : files) {
      NodeTag t = s.tag();
      if (t == null) {
        unplaced.add(s);
        continue;
      }
      if (s.isShared()) {
        (t.level() == 1 ? shared : unplaced).add(s);
      } else {
        byNode.computeIfAbsent(t.node(), k -> new ArrayList<>()).add(s);
      }
      depth = Math.max(depth, t.depth());
      stamp = Math.max(stamp, Math.max(t.node(), t.epoch()));
    }
    List<NodeView<F>> nodes = new ArrayList<>();
    for (Map.Entry<Long, List<Sequence<F>>> e : byNode.entrySet()) {
      List<Sequence<F>> own = new ArrayList<>(e.getValue());
      own.sort(Comparator.comparingLong(s -> s.tag().epoch()));
      NodeTag newest = own.get(own.size() - 1).tag();
      // A file holding rows outside its node's range was written for the node as it was before a
      // newer file shrank it (a memstore flush that raced the step emptying the node).
      List<Sequence<F>> inside = new ArrayList<>();
      for (Sequence<F> s : own) {
        if (s.isMarker() || Rows.atMost(newest.lo(), s.first()) && Rows.atMost(s.last(), newest.hi())) {
          inside.add(s);
        } else {
          unplaced.add(s);
        }
      }
      nodes.add(new NodeView<>(e.getKey(), newest.level(), newest.lo(), newest.hi(), newest.epoch(), List.copyOf(inside), 0, 0));
    }
    // Newest first: a node keeps its place unless a newer node of its level already took it.
    nodes.sort(Comparator.comparingLong((NodeView<F> n) -> n.epoch()).reversed().thenComparingLong(NodeView::id));
    // Each level's nodes so far by low end: they are disjoint, so a new node overlaps one of them
    // only if it overlaps the one starting at or before its low end, or the next one.
    List<TreeMap<byte[], NodeView<F>>> levels = new ArrayList<>();
    for (NodeView<F> n : nodes) {
      while (levels.size() < n.level()) {
        levels.add(new TreeMap<>(Rows::compareLo));
      }
      TreeMap<byte[], NodeView<F>> level = levels.get(n.level() - 1);
      if (overlapsAny(level.floorEntry(n.lo()), n) || overlapsAny(level.ceilingEntry(n.lo()), n)) {
        unplaced.addAll(n.files());
      } else {
        level.put(n.lo(), n);
      }
    }
    depth = Math.max(depth, levels.size());
    List<List<NodeView<F>>> sorted = new ArrayList<>();
    for (int i = 0; i < depth; i++) {
      sorted.add(i < levels.size() ? List.copyOf(levels.get(i).values()) : List.of());
    }
    List<Sequence<F>> placedShared = new ArrayList<>();
    if (!shared.isEmpty()) {
      List<NodeView<F>> level1 = depth == 0 ? List.of() : sorted.get(0);
      for (Sequence<F> s : shared) {
        boolean named = level1.stream().anyMatch(n -> s.slices().bytesOf(n.id()) > 0);
        (named ? placedShared : unplaced).add(s);
      }
      if (!level1.isEmpty()) {
        sorted.set(0, level1.stream().map(n -> withShared(n, placedShared)).toList());
      }
    }
    return new TreeLayout<>(List.copyOf(sorted), List.copyOf(unplaced), List.copyOf(placedShared), depth, stamp);
  }

  /** {@code n} counting its slices of {@code shared}. */
  private static <F> NodeView<F> withShared(NodeView<F> n, List<Sequence<F>> shared) {
    long bytes = 0;
    int sequences = 0;
    for (Sequence<F> s : shared) {
      long slice = s.slices().bytesOf(n.id());
      bytes += slice;
      sequences += slice > 0 ? 1 : 0;
    }
    return new NodeView<>(n.id(), n.level(), n.lo(), n.hi(), n.epoch(), n.files(), bytes, sequences);
  }

  private static <F> boolean overlapsAny(Map.Entry<byte[], NodeView<F>> placed, NodeView<F> n) {
    return placed != null && Rows.overlaps(placed.getValue().lo(), placed.getValue().hi(), n.lo(), n.hi());
  }

  /** The number of levels (0 for a store with no placed file). */
  public int depth() {
    return depth;
  }

  /** The nodes of level {@code i} (1..depth), sorted by range; empty past the depth. */
  public List<NodeView<F>> level(int i) {
    return i >= 1 && i <= depth ? levels.get(i - 1) : List.of();
  }

  /** The files no node holds. */
  public List<Sequence<F>> unplaced() {
    return unplaced;
  }

  /** The files of level {@code i}: its nodes' own files (markers included) and, at level 1, the shared flush files. */
  public int fileCount(int i) {
    int files = level(i).stream().mapToInt(n -> n.files().size()).sum();
    return i == 1 ? files + shared.size() : files;
  }

  /** Level 1's shared flush files, oldest first (see {@link Slices}). */
  public List<Sequence<F>> shared() {
    return shared;
  }

  /** The node with id {@code id}. */
  public NodeView<F> node(long id) {
    for (List<NodeView<F>> level : levels) {
      for (NodeView<F> n : level) {
        if (n.id() == id) {
          return n;
        }
      }
    }
    throw new IllegalArgumentException("no node " + id);
  }

  /** The largest node id or epoch any file records: new stamps must be larger. */
  public long largestStamp() {
    return largestStamp;
  }

  /** D_1..D_depth: the bytes each level holds. */
  public long[] levelBytes() {
    long[] out = new long[depth];
    for (int i = 1; i <= depth; i++) {
      out[i - 1] = level(i).stream().mapToLong(NodeView::bytes).sum();
    }
    return out;
  }

  /**
   * The files a read of rows {@code [start, stop]} (open ends empty) must open: the files of the
   * nodes whose ranges overlap it that hold rows in it, and the shared and unplaced files that do.
   * A node's files hold only rows of its range ({@link #of} leaves the others unplaced), so each
   * level's nodes are found by a binary search: a Get in a tree of thousands of files looks at the
   * few nodes on its row's path.
   */
  public List<F> filesFor(byte[] start, byte[] stop) {
    List<F> out = new ArrayList<>();
    for (List<NodeView<F>> level : levels) {
      for (int j = firstReaching(level, start); j < level.size() && Rows.atMost(level.get(j).lo(), stop); j++) {
        addOverlapping(level.get(j).files(), start, stop, out);
      }
    }
    addOverlapping(shared, start, stop, out);
    addOverlapping(unplaced, start, stop, out);
    return out;
  }

  /** The first node of {@code level} whose range reaches {@code start}: their high ends rise along a level. */
  private static <F> int firstReaching(List<NodeView<F>> level, byte[] start) {
    int lo = 0;
    int hi = level.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Rows.atMost(start, level.get(mid).hi())) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private static <F> void addOverlapping(List<Sequence<F>> files, byte[] start, byte[] stop, List<F> out) {
    for (Sequence<F> s : files) {
      if (!s.isMarker() && Rows.overlaps(s.first(), s.last(), start, stop)) {
        out.add(s.file());
      }
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= depth; i++) {
      sb.append("L").append(i).append(':');
      for (NodeView<F> n : level(i)) {
        sb.append(" #").append(n.id()).append('[').append(NodeTag.show(n.lo())).append(',')
            .append(NodeTag.show(n.hi())).append("]x").append(n.sequences());
      }
      sb.append('\n');
    }
    if (!shared.isEmpty()) {
      sb.append("shared: ").append(shared.size()).append('\n');
    }
    return sb.append("unplaced: ").append(unplaced.size()).toString();
  }
}
