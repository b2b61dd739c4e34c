package io.iam.core.tree.layout;

/**
 * One node a flush or compaction writes: the cells of rows in {@code [lower, upper)} (null: no
 * bound) go into a new file of node {@code node} (or of a new node, {@link #NEW}) on {@code
 * level}, whose range becomes {@code [lo, hi]} widened to cover the rows written (a null end: the
 * rows written). With {@code keepIfEmpty} a file without cells (a marker) is written when no row
 * arrives, so the node and its range persist; with {@code cutBytes > 0} the output is cut at row
 * boundaries into new nodes of about that many bytes each (a merge-and-cut).
 */
public record Target(long node, int level, byte[] lo, byte[] hi, byte[] lower, byte[] upper, boolean keepIfEmpty,
    long cutBytes) {

  /** A new node: its id is drawn when it is written. */
  public static final long NEW = -1;

  /** No node: the file is written untagged (unplaced), for a selection a host forced on the tree. */
  public static final long UNPLACED = -2;

  /** One untagged file for all rows. */
  public static Target unplaced() {
    return new Target(UNPLACED, 1, null, null, null, null, false, 0);
  }

  /** Whether row {@code row} belongs to this target's interval. */
  public boolean routes(byte[] row) {
    return (lower == null || Rows.compare(lower, row) <= 0) && (upper == null || Rows.compare(row, upper) < 0);
  }

  /** A target that receives no rows and only records a node's new level or range. */
  public static Target marker(long node, int level, byte[] lo, byte[] hi) {
    return new Target(node, level, lo, hi, Rows.OPEN, Rows.OPEN, true, 0);
  }

  /** Whether this target receives no rows at all (a marker). */
  public boolean markerOnly() {
    return lower != null && upper != null && lower.length == 0 && upper.length == 0;
  }
}
