package io.iam.core.policy;

import java.util.ArrayList;
import java.util.List;

/** Test helpers on stacks. */
final class Stacks {

  private Stacks() {}

  /** A quiescent stack of these sizes, oldest first, one flush each. */
  static StackSnapshot quiescent(long... sizes) {
    List<Component> components = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      components.add(Component.flushed(i, sizes[i], i + 1));
    }
    return StackSnapshot.of(components, sizes.length);
  }

  /** Component sizes after {@code p} runs on {@code s} in the cost model, oldest first. */
  static long[] sizesAfter(StackSnapshot s, MergePlan p) {
    long[] out = new long[p.sizeAfter(s.size())];
    for (int i = 0, j = 0; i < s.size(); i++) {
      if (p.isNone() || i <= p.from() || i > p.to()) {
        out[j++] = s.sizeBytes(i);
      } else {
        out[j - 1] += s.sizeBytes(i);
      }
    }
    return out;
  }
}
