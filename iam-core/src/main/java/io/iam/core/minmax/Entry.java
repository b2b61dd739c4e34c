package io.iam.core.minmax;

/**
 * One version of a key: the key, its sequence number (larger is newer), and either a value or a
 * tombstone. The value of a tombstone is 0 and means nothing.
 */
public record Entry(long key, long seq, long value, boolean tombstone) {

  /** A put of {@code value} under {@code key} at sequence {@code seq}. */
  public static Entry put(long key, long seq, long value) {
    return new Entry(key, seq, value, false);
  }

  /** A delete of {@code key} at sequence {@code seq}. */
  public static Entry delete(long key, long seq) {
    return new Entry(key, seq, 0L, true);
  }

  /** The newer of two versions of the same key. */
  static Entry newer(Entry a, Entry b) {
    return a.seq >= b.seq ? a : b;
  }
}
