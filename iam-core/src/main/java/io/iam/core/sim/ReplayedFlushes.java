package io.iam.core.sim;

import java.util.List;

/**
 * A real store's flushes, replayed in order: each flush's length and, when given, the length of
 * each component the store's merges wrote, so that the simulator's stack matches the store's byte
 * for byte and its decisions can be compared with the store's, flush by flush. Without merge
 * lengths a merge writes the sum of its inputs, as the cost model says.
 *
 * <p>Running past the record is an error: {@link IllegalStateException}.
 */
public final class ReplayedFlushes implements FlushStream {

  private final String source;
  private final List<Long> flushLengths;
  private final List<Long> mergeLengths;
  private int nextFlush;
  private int nextMerge;

  /**
   * @param source what recorded the flushes, for {@link #describe()}
   * @param flushLengths every flush's length, in order
   * @param mergeLengths the length of every component a merge wrote, in order, or {@code null} for
   *     the cost model's sums
   */
  public ReplayedFlushes(String source, List<Long> flushLengths, List<Long> mergeLengths) {
    this.source = source;
    this.flushLengths = List.copyOf(flushLengths);
    this.mergeLengths = mergeLengths == null ? null : List.copyOf(mergeLengths);
  }

  @Override
  public long nextLength() {
    if (nextFlush == flushLengths.size()) {
      throw new IllegalStateException(source + " recorded only " + flushLengths.size() + " flushes");
    }
    return flushLengths.get(nextFlush++);
  }

  @Override
  public long mergedLength(long inputBytes) {
    if (mergeLengths == null) {
      return inputBytes;
    }
    if (nextMerge == mergeLengths.size()) {
      throw new IllegalStateException(source + " recorded only " + mergeLengths.size() + " merges");
    }
    return mergeLengths.get(nextMerge++);
  }

  @Override
  public String describe() {
    return source + "'s " + flushLengths.size() + " flushes"
        + (mergeLengths == null ? "" : " and " + mergeLengths.size() + " merges");
  }
}
