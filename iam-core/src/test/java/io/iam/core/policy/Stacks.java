package io.iam.core.policy;

/** Test helpers on stacks. */
final class Stacks {

  private Stacks() {}

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
