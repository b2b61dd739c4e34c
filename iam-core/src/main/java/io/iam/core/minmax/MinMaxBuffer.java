package io.iam.core.minmax;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

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
 * <p>Not thread-safe; pure (no I/O, clock or threads).
 */
public final class MinMaxBuffer {

  /** A window of W consecutive cached keys from {@code start} to {@code end}. */
  public record Window(long start, long end) {

    /** max − min as an unsigned 64-bit number. */
    public long span() {
      return end - start;
    }
  }

  private static final Comparator<Window> BY_SPAN_THEN_START = (a, b) -> {
    int c = Long.compareUnsigned(a.span(), b.span());
    return c != 0 ? c : Long.compare(a.start(), b.start());
  };

  private final int capacity;
  private final int window;
  private final TreeMap<Long, Entry> cache = new TreeMap<>();
  private final Map<Long, Window> byStart = new HashMap<>();
  private final TreeSet<Window> bySpan = new TreeSet<>(BY_SPAN_THEN_START);

  /**
   * A cache of {@code capacity} keys (B) evicting windows of {@code window} keys (W),
   * 1 ≤ W ≤ B.
   */
  public MinMaxBuffer(int capacity, int window) {
    if (window < 1 || capacity < window) {
      throw new IllegalArgumentException(
          "need 1 <= window <= capacity, got window=" + window + " capacity=" + capacity);
    }
    this.capacity = capacity;
    this.window = window;
  }

  /** B. */
  public int capacity() {
    return capacity;
  }

  /** W. */
  public int window() {
    return window;
  }

  /** Keys in the cache. */
  public int size() {
    return cache.size();
  }

  /**
   * Adds one version. Returns the evicted window's entries (W of them, sorted by key) if the
   * cache became full, else an empty list.
   */
  public List<Entry> add(Entry e) {
    Entry old = cache.get(e.key());
    if (old != null) {
      if (e.seq() > old.seq()) {
        cache.put(e.key(), e); // same key: no window changes
      }
      return List.of();
    }
    cache.put(e.key(), e);
    refreshWindowsTouching(e.key());
    return cache.size() >= capacity ? evict(bySpan.first()) : List.of();
  }

  /** The window the next eviction would take, if the cache holds at least W keys. */
  public Optional<Window> bestWindow() {
    return bySpan.isEmpty() ? Optional.empty() : Optional.of(bySpan.first());
  }

  /** The cached version of {@code key}, or {@code null}. */
  public Entry get(long key) {
    return cache.get(key);
  }

  /** The cached entries with {@code lo ≤ key ≤ hi}, in key order (a read-only view). */
  public NavigableMap<Long, Entry> range(long lo, long hi) {
    return lo > hi ? Collections.emptyNavigableMap()
        : Collections.unmodifiableNavigableMap(cache.subMap(lo, true, hi, true));
  }

  /** The whole cache in key order (a read-only view). */
  public NavigableMap<Long, Entry> entries() {
    return Collections.unmodifiableNavigableMap(cache);
  }

  /**
   * Empties the cache at the end of a stream: its entries in key order, cut into runs of W (the
   * last may be shorter). Each run is one bucket.
   */
  public List<List<Entry>> drain() {
    List<List<Entry>> runs = new ArrayList<>();
    List<Entry> run = new ArrayList<>(window);
    for (Entry e : cache.values()) {
      run.add(e);
      if (run.size() == window) {
        runs.add(run);
        run = new ArrayList<>(window);
      }
    }
    if (!run.isEmpty()) {
      runs.add(run);
    }
    cache.clear();
    byStart.clear();
    bySpan.clear();
    return runs;
  }

  private List<Entry> evict(Window w) {
    List<Entry> out = new ArrayList<>(cache.subMap(w.start(), true, w.end(), true).values());
    for (Entry e : out) {
      cache.remove(e.key());
      dropWindow(e.key());
    }
    refreshWindowsTouching(w.start()); // the W−1 keys before the evicted run now reach past it
    return out;
  }

  /**
   * Recomputes the windows starting at the W−1 cached keys before {@code pivot} and, if it is
   * cached, at {@code pivot} itself: one walk over the ≤ 2W−1 keys around it, O(log C + W), then
   * ≤ W priority updates, O(W log C).
   */
  private void refreshWindowsTouching(long pivot) {
    long[] around = new long[2 * window];
    int before = 0;
    for (long k : cache.headMap(pivot, false).descendingKeySet()) {
      if (before == window - 1) {
        break;
      }
      around[window - 2 - before++] = k;
    }
    int from = window - 1 - before; // around[from .. window-2] are the predecessors, in order
    int n = window - 1;
    for (long k : cache.tailMap(pivot, true).keySet()) {
      if (n == around.length - 1) {
        break;
      }
      around[n++] = k;
    }
    int starts = cache.containsKey(pivot) ? window : window - 1;
    for (int i = from; i < starts; i++) {
      dropWindow(around[i]);
      if (i + window - 1 < n) {
        Window w = new Window(around[i], around[i + window - 1]);
        byStart.put(around[i], w);
        bySpan.add(w);
      }
    }
  }

  private void dropWindow(long start) {
    Window w = byStart.remove(start);
    if (w != null) {
      bySpan.remove(w);
    }
  }
}
