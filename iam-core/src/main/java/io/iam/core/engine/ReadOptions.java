package io.iam.core.engine;

/**
 * Per-read choices.
 *
 * @param snapshot read as of this snapshot, or null for the latest data
 * @param upperBound iterators stop before this user key (exclusive), or null for no bound
 */
public record ReadOptions(Snapshot snapshot, byte[] upperBound) {
  public static final ReadOptions DEFAULT = new ReadOptions(null, null);

  public static ReadOptions at(Snapshot snapshot) {
    return new ReadOptions(snapshot, null);
  }
}
