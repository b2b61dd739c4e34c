package io.iam.core.minmax;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Min-Max store's kernel: a {@link MinMaxBuffer} in front of the buckets it evicted, which are
 * indexed by key interval in an {@link IntervalBTree}. Writes get increasing sequence numbers;
 * reads return the newest version of each key over the buffer and the buckets, and hide keys whose
 * newest version is a tombstone.
 *
 * <p>Pure: {@link #put}/{@link #delete} return the buckets the step evicted (the "plan": the
 * sorted runs an executor would write, once each); nothing here writes them anywhere. The buckets
 * are kept in memory so the reads can be checked against a model.
 *
 * <p>Reads: a point lookup asks the buffer and the buckets whose interval contains the key
 * (an IB-tree stabbing query, then a binary search in each) and keeps the largest sequence; a
 * range query does the same with the buckets overlapping the range. O(log n + k log W) for k
 * overlapping buckets.
 *
 * <p>Costs: Min-Max never merges (unless a maintenance sort runs, which this kernel does not have
 * yet); each bucket is written once, in ⌈size / P⌉ page I/Os for pages of P entries.
 */
public final class MinMaxTree {

  private final MinMaxBuffer buffer;
  private final IntervalBTree<Bucket> index = new IntervalBTree<>();
  private final List<Bucket> buckets = new ArrayList<>();
  private long nextSeq = 1;

  /** A tree whose buffer holds {@code capacity} keys (B) and evicts windows of {@code window} (W). */
  public MinMaxTree(int capacity, int window) {
    this.buffer = new MinMaxBuffer(capacity, window);
  }

  /** Writes {@code key → value}; returns the buckets this write evicted (none or one). */
  public List<Bucket> put(long key, long value) {
    return apply(Entry.put(key, nextSeq++, value));
  }

  /** Deletes {@code key} (a tombstone); returns the buckets this write evicted (none or one). */
  public List<Bucket> delete(long key) {
    return apply(Entry.delete(key, nextSeq++));
  }

  /** Ends the stream: the buffer's remaining keys become buckets of at most W keys. */
  public List<Bucket> flush() {
    List<Bucket> out = new ArrayList<>();
    for (List<Entry> run : buffer.drain()) {
      out.add(add(run));
    }
    return out;
  }

  private List<Bucket> apply(Entry e) {
    List<Entry> evicted = buffer.add(e);
    return evicted.isEmpty() ? List.of() : List.of(add(evicted));
  }

  private Bucket add(List<Entry> run) {
    Bucket b = Bucket.of(buckets.size(), run);
    buckets.add(b);
    index.insert(b.min(), b.max(), b);
    return b;
  }

  /** The write cache. */
  public MinMaxBuffer buffer() {
    return buffer;
  }

  /** Every bucket written so far, oldest first. */
  public List<Bucket> buckets() {
    return Collections.unmodifiableList(buckets);
  }

  /** The IB-tree over the buckets. */
  public IntervalBTree<Bucket> index() {
    return index;
  }

  /** The newest version of {@code key}, tombstones included, or {@code null} if none. */
  public Entry newest(long key) {
    Entry best = buffer.get(key);
    for (IntervalBTree.Item<Bucket> item : index.stab(key)) {
      Entry e = item.value().get(key);
      if (e != null) {
        best = best == null ? e : Entry.newer(best, e);
      }
    }
    return best;
  }

  /** The value of {@code key}, empty if it was never written or its newest version is a delete. */
  public Optional<Long> get(long key) {
    Entry e = newest(key);
    return e == null || e.tombstone() ? Optional.empty() : Optional.of(e.value());
  }

  /** The live keys in [lo, hi] and their newest values, in key order. */
  public NavigableMap<Long, Long> range(long lo, long hi) {
    TreeMap<Long, Entry> newest = new TreeMap<>(buffer.range(lo, hi));
    for (IntervalBTree.Item<Bucket> item : index.overlapping(lo, hi)) {
      for (Entry e : item.value().range(lo, hi)) {
        newest.merge(e.key(), e, Entry::newer);
      }
    }
    TreeMap<Long, Long> out = new TreeMap<>();
    newest.forEach((k, e) -> {
      if (!e.tombstone()) {
        out.put(k, e.value());
      }
    });
    return out;
  }

  /** Min-Max's costs so far for pages of {@code pageEntries} entries: no merges, no reads. */
  public LsmCosts costs(int pageEntries) {
    long ios = 0;
    long entries = 0;
    for (Bucket b : buckets) {
      ios += (b.size() + pageEntries - 1) / pageEntries;
      entries += b.size();
    }
    return new LsmCosts(0, ios, 0, entries, 0);
  }
}
