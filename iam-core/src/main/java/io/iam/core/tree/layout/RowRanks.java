package io.iam.core.tree.layout;

import io.iam.core.tree.iam.Node;
import io.iam.core.tree.iam.TreeShape;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Maps the rows that matter for one plan to the {@code long} keys of iam-core's kernel, by rank,
 * so every plan the kernel makes names real rows again. The rows (non-empty, any order) are sorted
 * and numbered 1..n; rank 0 is an open low end and rank n+1 an open high end. Immutable.
 */
final class RowRanks {

  private final byte[][] rows;

  private RowRanks(byte[][] rows) {
    this.rows = rows;
  }

  /** The ranks of {@code rows}; empty (open) ends are skipped. */
  static RowRanks of(Collection<byte[]> rows) {
    List<byte[]> all = new ArrayList<>();
    for (byte[] r : rows) {
      if (r != null && !Rows.isOpen(r)) {
        all.add(r);
      }
    }
    all.sort(Rows::compare);
    List<byte[]> distinct = new ArrayList<>();
    for (byte[] r : all) {
      if (distinct.isEmpty() || Rows.compare(distinct.get(distinct.size() - 1), r) != 0) {
        distinct.add(r);
      }
    }
    return new RowRanks(distinct.toArray(new byte[0][]));
  }

  /** The rank of low end {@code lo} (0 if open). */
  long lo(byte[] lo) {
    return Rows.isOpen(lo) ? 0 : rank(lo);
  }

  /** The rank of high end {@code hi} (n+1 if open). */
  long hi(byte[] hi) {
    return Rows.isOpen(hi) ? rows.length + 1 : rank(hi);
  }

  /** The row of {@code rank}; the open end for 0 and n+1. */
  byte[] row(long rank) {
    if (rank < 0 || rank > rows.length + 1) {
      throw new IllegalArgumentException("rank " + rank + " outside 0.." + (rows.length + 1));
    }
    return rank == 0 || rank == rows.length + 1 ? Rows.OPEN : rows[(int) rank - 1].clone();
  }

  /** The largest rank, n+1 (an open high end). */
  long top() {
    return rows.length + 1;
  }

  private long rank(byte[] row) {
    int i = java.util.Arrays.binarySearch(rows, row, Rows::compare);
    if (i < 0) {
      throw new IllegalArgumentException("row not in the rank space");
    }
    return i + 1L;
  }

  /** The kernel's view of {@code n}. */
  <F> Node node(TreeLayout.NodeView<F> n) {
    return new Node(n.id(), n.level(), lo(n.lo()), hi(n.hi()), n.bytes(), n.sequences());
  }

  /** The kernel's shape of {@code layout} with {@code depth} levels (≥ the layout's, ≥ 1). */
  <F> TreeShape shape(TreeLayout<F> layout, int depth, int fanout, long capacity) {
    List<List<Node>> levels = new ArrayList<>();
    for (int i = 1; i <= depth; i++) {
      List<Node> level = new ArrayList<>();
      for (TreeLayout.NodeView<F> n : layout.level(i)) {
        level.add(node(n));
      }
      levels.add(level);
    }
    return new TreeShape(levels, fanout, capacity);
  }

  /** The rank space of every node end of {@code layout} plus {@code extra} rows. */
  static <F> RowRanks of(TreeLayout<F> layout, Collection<byte[]> extra) {
    List<byte[]> rows = new ArrayList<>(extra);
    for (int i = 1; i <= layout.depth(); i++) {
      for (TreeLayout.NodeView<F> n : layout.level(i)) {
        rows.add(n.lo());
        rows.add(n.hi());
      }
    }
    return of(rows);
  }
}
