package io.iam.core.minmax;

import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;

/**
 * The Min-Max write cache (paper §4, Algorithm 1): a sorted cache of at most {@code capacity} (B)
 * keys that, each time it becomes full, evicts the window of {@code window} (W) consecutive keys
 * (in key order) with the smallest max − min. The evicted window becomes a bucket, a sorted run
 * written once.
 *
 * <p><b>Incremental window choice.</b> A window is named by its first key (its <i>start</i>), not
 * by its position, so an insert or an eviction does not shift the windows elsewhere in the cache.
 * Two structures are kept up to date:
 *
 * <ul>
 *   <li>{@code byStart}, the reverse index from a start key to its window (end key and span);
 *   <li>{@code bySpan}, the priority structure: every complete window ordered by (span, start).
 * </ul>
 *
 * A key at sorted position p lies in the windows starting at positions p−W+1 … p, that is at its
 * W−1 predecessors and at itself; these are the only windows an insert of that key changes. An
 * eviction of positions s … s+W−1 deletes the W windows starting there and changes only the
 * windows starting at the W−1 predecessors of s. Every other window keeps its keys, so nothing is
 * rescanned.
 *
 * <p><b>Complexity</b> (C = keys in the cache ≤ B): insert O(W log C) (one walk over the
 * ≤ 2W−1 keys around the new key, O(log C + W), then ≤ W windows recomputed from that walk,
 * O(log C) per priority update); eviction O(W log C); the best window O(log C) ({@code bySpan.first()});
 * memory O(C). A full rescan would cost O(C) per eviction.
 *
 * <p><b>Versions.</b> The cache holds one entry per key: a newer version (larger sequence) of a
 * cached key replaces the cached one in place (the size does not change and no window moves); an
 * older one is ignored. Tombstones take a slot like puts, because they must reach a bucket to hide
 * older versions there.
 *
 * <p><b>Ties</b> go to the window with the smallest start key (the leftmost). Spans are compared
 * as unsigned 64-bit differences, so any two longs work as keys.
 *
 * <p>The window logic is {@link WindowCache}'s; this class is that cache over {@code long} keys
 * holding {@link Entry} versions. Not thread-safe; pure (no I/O, clock or threads).
 */
public final class MinMaxBuffer {

  /** A window of W consecutive cached keys from {@code start} to {@code end}. */
  public record Window(long start, long end) {

    /** max − min as an unsigned 64-bit number. */
    public long span() {
      return end - start;
    }
  }

  private final WindowCache<Long, Entry> cache;

  /**
   * A cache of {@code capacity} keys (B) evicting windows of {@code window} keys (W),
   * 1 ≤ W ≤ B.
   */
  public MinMaxBuffer(int capacity, int window) {
    this.cache = new WindowCache<>(capacity, window, Long::compare, (lo, hi) -> hi - lo, Entry::newer);
  }

  /** B. */
  public int capacity() {
    return cache.capacity();
  }

  /** W. */
  public int window() {
    return cache.window();
  }

  /** Keys in the cache. */
  public int size() {
    return cache.size();
  }

  /**
   * Adds one version. Returns the evicted window's entries (W of them, sorted by key) if the cache
   * became full, else an empty list.
   */
  public List<Entry> add(Entry e) {
    return cache.add(e.key(), e).stream().map(Map.Entry::getValue).toList();
  }

  /** The window the next eviction would take, if the cache holds at least W keys. */
  public Optional<Window> bestWindow() {
    return cache.bestWindow().map(w -> new Window(w.start(), w.end()));
  }

  /** The cached version of {@code key}, or {@code null}. */
  public Entry get(long key) {
    return cache.get(key);
  }

  /** The cached entries with {@code lo ≤ key ≤ hi}, in key order (a read-only view). */
  public NavigableMap<Long, Entry> range(long lo, long hi) {
    return cache.range(lo, hi);
  }

  /** The whole cache in key order (a read-only view). */
  public NavigableMap<Long, Entry> entries() {
    return cache.entries();
  }

  /**
   * Empties the cache at the end of a stream: its entries in key order, cut into runs of W (the
   * last may be shorter). Each run is one bucket.
   */
  public List<List<Entry>> drain() {
    return cache.drain().stream().map(run -> run.stream().map(Map.Entry::getValue).toList()).toList();
  }
}
