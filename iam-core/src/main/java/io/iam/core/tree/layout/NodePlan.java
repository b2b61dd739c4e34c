package io.iam.core.tree.layout;

import io.iam.core.tree.iam.Mode;
import java.util.List;

/**
 * One step of the tree made concrete for a host that stores nodes as files: the files to read ({@code inputs}, which the step
 * replaces), the nodes to write ({@code targets}, sorted and disjoint by row interval; markers
 * anywhere), the tree depth to record in the new files, and the mode the kernel planned with.
 *
 * @param kind what the kernel planned, for logs and tests: adopt, move, split, flush, combine,
 *     merge (a level-1 node merged after flushes appended to it) or cut
 */
public record NodePlan<F>(String kind, List<F> inputs, List<Target> targets, int depth, Mode mode) {

  public NodePlan {
    inputs = List.copyOf(inputs);
    targets = List.copyOf(targets);
  }
}
