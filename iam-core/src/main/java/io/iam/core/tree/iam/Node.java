package io.iam.core.tree.iam;

/**
 * An on-disk node (an MSTable) as the planners see it: immutable metadata only.
 *
 * <p>Its key range {@code [lo, hi]} is inclusive and {@code long}-keyed in this pure model. The
 * number of children it covers is derived from the shape, see {@link TreeShape#childCount(Node)}.
 * Level 0 is the memtable being flushed; on-disk nodes live in levels 1..n.
 *
 * @param sequences the sorted sequences it holds (0 for an emptied node)
 */
public record Node(long id, int level, long lo, long hi, long bytes, int sequences) {

  public Node {
    if (level < 0 || lo > hi || bytes < 0 || sequences < 0) {
      throw new IllegalArgumentException("bad node: " + id + " L" + level + " [" + lo + "," + hi + "] " + bytes + "B " + sequences);
    }
  }

  /** Whether {@code [a, b]} overlaps this node's range. */
  public boolean overlaps(long a, long b) {
    return a <= hi && lo <= b;
  }

  public Node withLevel(int newLevel) {
    return new Node(id, newLevel, lo, hi, bytes, sequences);
  }
}
