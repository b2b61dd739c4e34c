package io.iam.core.tree.iam;

import java.util.List;
import java.util.Optional;

/**
 * Keeps the per-level node counts of an LSA/IAM tree (paper §4.2.3). Pure and static.
 *
 * <p>When the leaf level n holds ≥ t^n nodes a new empty leaf level is added. When an internal
 * level i holds N_i > t^i nodes one of them is combined (flushed and destroyed, see {@link
 * FlushPlanner#planCombine}): among the nodes with two neighbours, the one whose T_cn — the number
 * of children covered by the union of its and its neighbours' ranges — is smallest, preferring
 * those with T_cn ≤ 3t (the paper's candidate set; it falls back to the smallest T_cn overall if
 * that set is empty). Ties go to the leftmost node.
 */
public final class CombinePlanner {

  private CombinePlanner() {}

  /** Whether the leaf level is full (N_n ≥ t^n), so a level must be added. */
  public static boolean needsNewLevel(TreeShape shape) {
    int n = shape.depth();
    return shape.level(n).size() >= shape.threshold(n);
  }

  /** The node to combine on the shallowest internal level with N_i > t^i, if any. */
  public static Optional<Node> pick(TreeShape shape) {
    for (int i = 1; i < shape.depth(); i++) {
      if (shape.level(i).size() > shape.threshold(i)) {
        return Optional.of(pick(shape, i));
      }
    }
    return Optional.empty();
  }

  /** The node of internal level {@code i} (with ≥ 3 nodes) to combine. */
  public static Node pick(TreeShape shape, int i) {
    List<Node> level = shape.level(i);
    if (level.size() < 3) {
      throw new IllegalArgumentException("level " + i + " has no node with two neighbours");
    }
    Node best = null;
    long bestTcn = Long.MAX_VALUE;
    for (int j = 1; j + 1 < level.size(); j++) {
      long tcn = coveredChildren(shape, i, j);
      if (tcn < bestTcn) {
        bestTcn = tcn;
        best = level.get(j);
      }
    }
    return best; // the smallest T_cn is ≤ 3t whenever the candidate set is non-empty
  }

  /** T_cn of the {@code j}-th node of level {@code i}: children under its and its neighbours' ranges. */
  public static int coveredChildren(TreeShape shape, int i, int j) {
    List<Node> level = shape.level(i);
    return shape.overlapping(i + 1, level.get(j - 1).lo(), level.get(j + 1).hi()).size();
  }
}
