package io.iam.core.sim;

/**
 * A source of flush lengths ℓ1, ℓ2, … for the simulator. Streams are deterministic: two streams
 * built with the same parameters and seed produce the same sequence. Not thread-safe; one stream
 * feeds one simulation.
 */
public interface FlushStream {

  /** The length in bytes of the next flush (≥ 0). */
  long nextLength();

  /**
   * Whether flushes carry keys, so that a merge writes the union of its inputs' keys rather than
   * the sum of their lengths.
   */
  default boolean keyed() {
    return false;
  }

  /** For keyed streams: the sorted, distinct keys of the flush last returned. */
  default int[] lastKeys() {
    throw new IllegalStateException("this flush stream carries no keys");
  }

  /** For keyed streams: the bytes one record occupies. */
  default long recordBytes() {
    throw new IllegalStateException("this flush stream carries no keys");
  }

  /**
   * For streams without keys: the length of the component a merge writes from {@code inputs}
   * components whose lengths add up to {@code inputBytes}. The cost model's answer is the sum; a
   * stream that replays a real store's flushes may return what the store really wrote, or the sum
   * less the bytes every component holds whatever its data ({@link ReplayedFlushes#withFixedBytes}).
   */
  default long mergedLength(long inputBytes, int inputs) {
    return inputBytes;
  }

  /** A short description, e.g. {@code uniform 4MiB}. */
  String describe();
}
