package io.iam.core.minmax;

import java.util.ArrayList;
import java.util.List;

/**
 * A sorted run written once: the window of the write cache that Min-Max evicted. It holds at most
 * one version per key, sorted by key; {@code min}/{@code max} are its first and last keys and
 * {@code minSeq}/{@code maxSeq} the range of its sequence numbers.
 *
 * <p>Sequence ranges of buckets may interleave (a key can wait in the cache while newer keys are
 * evicted), but for one key a later bucket always holds a newer version: a key's version leaves
 * the cache before the next version of that key can enter it.
 */
public record Bucket(long id, List<Entry> entries, long minSeq, long maxSeq) {

  /** A bucket over {@code entries}, which must be non-empty and strictly increasing by key. */
  public Bucket {
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("a bucket holds at least one entry");
    }
    entries = List.copyOf(entries);
    for (int i = 1; i < entries.size(); i++) {
      if (entries.get(i - 1).key() >= entries.get(i).key()) {
        throw new IllegalArgumentException("bucket entries must be strictly increasing by key");
      }
    }
  }

  /** A bucket of sorted {@code entries}, its sequence range computed from them. */
  public static Bucket of(long id, List<Entry> entries) {
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    for (Entry e : entries) {
      lo = Math.min(lo, e.seq());
      hi = Math.max(hi, e.seq());
    }
    return new Bucket(id, entries, lo, hi);
  }

  /** The smallest key. */
  public long min() {
    return entries.get(0).key();
  }

  /** The largest key. */
  public long max() {
    return entries.get(entries.size() - 1).key();
  }

  /** Number of entries. */
  public int size() {
    return entries.size();
  }

  /** The keys, in order (handy for tests and pictures). */
  public long[] keys() {
    return entries.stream().mapToLong(Entry::key).toArray();
  }

  /** The entry of {@code key}, or {@code null}: binary search, O(log size). */
  public Entry get(long key) {
    int i = lowerBound(key);
    return i < entries.size() && entries.get(i).key() == key ? entries.get(i) : null;
  }

  /** The entries with {@code lo ≤ key ≤ hi}, in order. */
  public List<Entry> range(long lo, long hi) {
    List<Entry> out = new ArrayList<>();
    for (int i = lowerBound(lo); i < entries.size() && entries.get(i).key() <= hi; i++) {
      out.add(entries.get(i));
    }
    return out;
  }

  private int lowerBound(long key) {
    int lo = 0;
    int hi = entries.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (entries.get(mid).key() < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  public String toString() {
    return "Bucket#" + id + "[" + min() + ", " + max() + "] n=" + size() + " seq=" + minSeq + ".." + maxSeq;
  }
}
