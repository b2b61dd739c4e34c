package io.iam.core.tree.layout;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * What a running tree step holds, so that a host can run another step beside it: the nodes the step
 * reads or writes, or the whole tree for a step that changes the tree as a whole (adopting unplaced
 * files, a combine, a selection the host forced). {@link TreePlanner#next(TreeLayout,
 * Collection)} plans only steps whose claims are disjoint from every running step's.
 *
 * @param whole whether the step holds the whole tree
 * @param nodes the node ids the step reads or writes (empty when {@code whole})
 */
public record Claim(boolean whole, Set<Long> nodes) {

  /** A step that runs alone. */
  public static final Claim WHOLE = new Claim(true, Set.of());

  public Claim {
    nodes = Set.copyOf(nodes);
  }

  /** Whether this claim and {@code other} can run side by side. */
  public boolean disjoint(Claim other) {
    if (whole || other.whole) {
      return false;
    }
    for (Long n : nodes) {
      if (other.nodes.contains(n)) {
        return false;
      }
    }
    return true;
  }

  /** The nodes {@code running} hold together, or {@link #WHOLE} if any of them holds the tree. */
  public static Claim union(Collection<Claim> running) {
    Set<Long> all = new HashSet<>();
    for (Claim c : running) {
      if (c.whole) {
        return WHOLE;
      }
      all.addAll(c.nodes);
    }
    return new Claim(false, all);
  }
}
