package io.iam.core.minmax;

import io.iam.core.cost.LsmCosts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * <p>Maintenance (optional, paper §4: "sort the data at periodic intervals"): {@link #planSort}
 * finds the key shared by the most buckets and, if more than a given number share it, returns those
 * buckets; {@link #sort} merges them into disjoint buckets of W keys (newest version per key,
 * tombstones kept, since other buckets may hold older versions).
 *
 * <p>Costs: without maintenance Min-Max never merges and never reads; each bucket is written once,
 * in ⌈size / P⌉ page I/Os for pages of P entries. A sort counts one merge, reads its inputs and
 * writes its outputs.
 */
public final class MinMaxTree {

  private final MinMaxBuffer buffer;
  private final IntervalBTree<Long, Bucket> index = IntervalBTree.ofLongs();
  private final Map<Long, IntervalBTree.Item<Long, Bucket>> buckets = new LinkedHashMap<>();
  private final List<Integer> writtenSizes = new ArrayList<>();
  private final List<Integer> readSizes = new ArrayList<>();
  private long merges;
  private long nextSeq = 1;
  private long nextBucket;

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
    Bucket b = Bucket.of(nextBucket++, run);
    buckets.put(b.id(), index.insert(b.min(), b.max(), b));
    writtenSizes.add(b.size());
    return b;
  }

  /**
   * A maintenance sort, if more than {@code maxOverlap} buckets share a key: the buckets holding
   * the key held by the most buckets (the leftmost such key). O(n log n) for n buckets (a sweep
   * over the endpoints).
   */
  public Optional<List<Bucket>> planSort(int maxOverlap) {
    IntervalBTree.Depth<Long> deepest = index.deepest();
    if (deepest.count() <= maxOverlap) {
      return Optional.empty();
    }
    return Optional.of(index.stab(deepest.at()).stream().map(IntervalBTree.Item::value).toList());
  }

  /**
   * Merges {@code inputs} (buckets of this tree, e.g. from {@link #planSort}) into disjoint buckets
   * of at most W keys holding the newest version of each key; returns the new buckets.
   */
  public List<Bucket> sort(List<Bucket> inputs) {
    TreeMap<Long, Entry> newest = new TreeMap<>();
    for (Bucket b : inputs) {
      IntervalBTree.Item<Long, Bucket> item = buckets.remove(b.id());
      if (item == null || !index.remove(item)) {
        throw new IllegalArgumentException("not a bucket of this tree: " + b);
      }
      readSizes.add(b.size());
      b.entries().forEach(e -> newest.merge(e.key(), e, Entry::newer));
    }
    merges++;
    List<Bucket> out = new ArrayList<>();
    List<Entry> all = new ArrayList<>(newest.values());
    for (int i = 0; i < all.size(); i += buffer.window()) {
      out.add(add(all.subList(i, Math.min(all.size(), i + buffer.window()))));
    }
    return out;
  }

  /** The write cache. */
  public MinMaxBuffer buffer() {
    return buffer;
  }

  /** The live buckets, oldest first. */
  public List<Bucket> buckets() {
    return buckets.values().stream().map(IntervalBTree.Item::value).toList();
  }

  /** The IB-tree over the buckets. */
  public IntervalBTree<Long, Bucket> index() {
    return index;
  }

  /** The newest version of {@code key}, tombstones included, or {@code null} if none. */
  public Entry newest(long key) {
    Entry best = buffer.get(key);
    for (IntervalBTree.Item<Long, Bucket> item : index.stab(key)) {
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
    for (IntervalBTree.Item<Long, Bucket> item : index.overlapping(lo, hi)) {
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

  /** Min-Max's costs so far for pages of {@code pageEntries} entries. */
  public LsmCosts costs(int pageEntries) {
    return new LsmCosts(merges, pages(writtenSizes, pageEntries), pages(readSizes, pageEntries),
        sum(writtenSizes), sum(readSizes));
  }

  private static long pages(List<Integer> sizes, int pageEntries) {
    return sizes.stream().mapToLong(n -> (n + pageEntries - 1) / pageEntries).sum();
  }

  private static long sum(List<Integer> sizes) {
    return sizes.stream().mapToLong(Integer::longValue).sum();
  }
}
