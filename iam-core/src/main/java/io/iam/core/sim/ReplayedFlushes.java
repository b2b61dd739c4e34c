package io.iam.core.sim;

import java.util.List;

/**
 * A real store's flushes, replayed in order, with one of three answers to what a merge writes:
 *
 * <ul>
 *   <li>the sum of its inputs, as the cost model says;
 *   <li>the sum less {@code (inputs - 1) × s}, where s is the bytes every component of the store
 *       holds whatever its data (its files' metadata pages, the part-filled last page of each file),
 *       which a merge of n components writes once instead of n times ({@link #withFixedBytes});
 *   <li>the length each of the store's merges really wrote, in order, so that the simulator's stack
 *       matches the store's byte for byte and its decisions can be compared with the store's, flush
 *       by flush.
 * </ul>
 *
 * <p>Running past the record is an error: {@link IllegalStateException}.
 */
public final class ReplayedFlushes implements FlushStream {

  private final String source;
  private final List<Long> flushLengths;
  private final List<Long> mergeLengths;
  private final long fixedBytes;
  private int nextFlush;
  private int nextMerge;

  /**
   * @param source what recorded the flushes, for {@link #describe()}
   * @param flushLengths every flush's length, in order
   * @param mergeLengths the length of every component a merge wrote, in order, or {@code null} for
   *     the cost model's sums
   */
  public ReplayedFlushes(String source, List<Long> flushLengths, List<Long> mergeLengths) {
    this(source, flushLengths, mergeLengths, 0);
  }

  private ReplayedFlushes(String source, List<Long> flushLengths, List<Long> mergeLengths, long fixedBytes) {
    this.source = source;
    this.flushLengths = List.copyOf(flushLengths);
    this.mergeLengths = mergeLengths == null ? null : List.copyOf(mergeLengths);
    this.fixedBytes = fixedBytes;
  }

  /**
   * Flushes whose merges write the sum of their inputs less {@code fixedBytes} for every input after
   * the first (at least one byte). A negative {@code fixedBytes} makes a merge write more than its
   * inputs; 0 is the cost model's sum.
   */
  public static ReplayedFlushes withFixedBytes(String source, List<Long> flushLengths, long fixedBytes) {
    return new ReplayedFlushes(source, flushLengths, null, fixedBytes);
  }

  @Override
  public long nextLength() {
    if (nextFlush == flushLengths.size()) {
      throw new IllegalStateException(source + " recorded only " + flushLengths.size() + " flushes");
    }
    return flushLengths.get(nextFlush++);
  }

  @Override
  public long mergedLength(long inputBytes, int inputs) {
    if (mergeLengths == null) {
      return Math.max(1, inputBytes - (inputs - 1) * fixedBytes);
    }
    if (nextMerge == mergeLengths.size()) {
      throw new IllegalStateException(source + " recorded only " + mergeLengths.size() + " merges");
    }
    return mergeLengths.get(nextMerge++);
  }

  @Override
  public String describe() {
    return source + "'s " + flushLengths.size() + " flushes"
        + (mergeLengths != null ? " and " + mergeLengths.size() + " merges"
            : fixedBytes != 0 ? ", " + fixedBytes + " bytes of each component fixed" : "");
  }
}
