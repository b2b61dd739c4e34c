package io.iam.core.tree.layout;

import io.iam.core.tree.iam.Mode;
import java.util.List;

/**
 * One step of the tree made concrete for a host that stores nodes as files: the files to read ({@code inputs}, which the step
 * replaces), the nodes to write ({@code targets}, sorted and disjoint by row interval; markers
 * anywhere), the tree depth to record in the new files, and the mode the kernel planned with.
 *
 * @param kind what the kernel planned, for logs and tests: adopt, move, split, flush, combine,
 *     merge (a level-1 node merged after flushes appended to it), cut, level 1 (every level-1 node
 *     emptied together, with the shared flush files), or for a memstore flush: flush, or {@link
 *     #SHARED_FLUSH}
 */
public record NodePlan<F>(String kind, List<F> inputs, List<Target> targets, int depth, Mode mode) {

  /** The kind of a memstore flush written as one shared level-1 file ({@link Slices}). */
  public static final String SHARED_FLUSH = "shared flush";

  public NodePlan {
    inputs = List.copyOf(inputs);
    targets = List.copyOf(targets);
  }

  /** Whether all rows go into one shared level-1 file, the targets only naming its slices. */
  public boolean shared() {
    return SHARED_FLUSH.equals(kind);
  }
}
