package io.iam.core.policy;

/**
 * One component of a store, as a policy sees it: an immutable summary, never a file handle.
 *
 * @param id an identifier the caller can map back to its own object (a file name hash, a
 *     component id); policies only pass it through
 * @param sizeBytes the component's length in bytes (≥ 0)
 * @param firstFlush number of the oldest flush whose data the component holds (1-based)
 * @param lastFlush number of the newest flush whose data the component holds (≥ firstFlush)
 * @param sortedRuns how many sorted runs the component holds (1 for an ordinary SSTable)
 * @param merging whether a merge that reads this component is already running
 * @param keyRange the keys the component holds, or {@link KeyRange#UNKNOWN}
 */
public record Component(
    long id,
    long sizeBytes,
    long firstFlush,
    long lastFlush,
    int sortedRuns,
    boolean merging,
    KeyRange keyRange) {

  public Component {
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("component size must be >= 0: " + sizeBytes);
    }
    if (firstFlush < 1 || lastFlush < firstFlush) {
      throw new IllegalArgumentException(
          "component flush range must satisfy 1 <= first <= last: [" + firstFlush + ", " + lastFlush + "]");
    }
    if (sortedRuns < 1) {
      throw new IllegalArgumentException("a component holds at least one sorted run: " + sortedRuns);
    }
    if (keyRange == null) {
      throw new IllegalArgumentException("key range must not be null; use KeyRange.UNKNOWN");
    }
  }

  /** A component whose key range is not tracked. */
  public Component(long id, long sizeBytes, long firstFlush, long lastFlush, int sortedRuns, boolean merging) {
    this(id, sizeBytes, firstFlush, lastFlush, sortedRuns, merging, KeyRange.UNKNOWN);
  }

  /** A freshly flushed component: one run, holding flush number {@code flush} only. */
  public static Component flushed(long id, long sizeBytes, long flush) {
    return new Component(id, sizeBytes, flush, flush, 1, false);
  }
}
