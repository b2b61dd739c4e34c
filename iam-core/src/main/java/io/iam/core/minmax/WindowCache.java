package io.iam.core.minmax;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.PriorityQueue;
import java.util.function.BinaryOperator;

/**
 * The Min-Max write cache over any ordered key type (paper §4, Algorithm 1): a sorted cache of at
 * most {@code capacity} (B) keys that, each time it becomes full, evicts the window of {@code
 * window} (W) consecutive keys (in key order) with the smallest span max − min. {@link
 * MinMaxBuffer} is this cache over {@code long} keys; the engine uses it over internal byte keys.
 *
 * <p><b>Incremental window choice.</b> A window is named by its first key (its <i>start</i>), not
 * by its position, so an insert or an eviction does not shift the windows elsewhere in the cache.
 * Two structures are kept up to date:
 *
 * <ul>
 *   <li>{@code byStart}, the reverse index from a start key to its window (end key and span),
 *       by key identity;
 *   <li>{@code bySpan}, the priority structure: a binary heap of windows ordered by (span, start),
 *       with lazy deletion: a window replaced or dropped stays in the heap until it reaches the
 *       top, where it is recognised (it is no longer {@code byStart}'s window for its start) and
 *       discarded; the heap is rebuilt from {@code byStart} when stale windows outnumber live
 *       ones. A push into an array heap moves O(1) entries on average, where a balanced tree
 *       walks O(log C) nodes on every update: with W window updates per insert this was the
 *       drain's whole cost.
 * </ul>
 *
 * A key at sorted position p lies in the windows starting at positions p−W+1 … p, that is at its
 * W−1 predecessors and at itself; these are the only windows an insert of that key changes. An
 * eviction of positions s … s+W−1 deletes the W windows starting there and changes only the
 * windows starting at the W−1 predecessors of s. Every other window keeps its keys, so nothing is
 * rescanned.
 *
 * <p><b>Complexity</b> (C = keys in the cache ≤ B): insert O(log C + W) for the walk over the ≤
 * 2W−1 keys around the new key, then ≤ W windows recomputed from it, each a heap push of O(1)
 * expected moves (O(log C) at worst); eviction the same; the best window O(log C) amortized
 * (stale tops are popped once each); memory O(C). A full rescan would cost O(C) per eviction.
 *
 * <p><b>Spans</b> come from a {@link Span} function and are compared as unsigned 64-bit numbers;
 * it must not decrease when the window widens (for a ≤ b ≤ c ≤ d, span(b, c) ≤ span(a, d)), but
 * need not be exact. <b>Ties</b> go to the window with the smallest start key (the leftmost).
 *
 * <p><b>Equal keys.</b> A key already cached is not inserted again: {@code onEqual} chooses which
 * value the cache keeps (for example the newer version); the size does not change and no window
 * moves.
 *
 * <p>Not thread-safe; pure (no I/O, clock or threads).
 *
 * @param <K> the key, ordered by the comparator given
 * @param <V> what the cache keeps with each key
 */
public final class WindowCache<K, V> {

  /** max − min of a window, as an unsigned 64-bit number. */
  @FunctionalInterface
  public interface Span<K> {
    long between(K min, K max);
  }

  /** A window of W consecutive cached keys from {@code start} to {@code end}. */
  public record Window<K>(K start, K end, long span) {}

  private final int capacity;
  private final int window;
  private final Comparator<? super K> order;
  private final Span<? super K> span;
  private final BinaryOperator<V> onEqual;
  private final TreeMap<K, V> cache;
  /**
   * By identity: every key it is asked about is an instance held by {@code cache}, so no key
   * comparison is needed (O(1) instead of O(log C) byte-key comparisons per window update, which
   * made the refresh of W windows per insert the whole cost of a drain).
   */
  private final IdentityHashMap<K, Window<K>> byStart = new IdentityHashMap<>();
  private final Comparator<Window<K>> bySpanOrder;
  private final PriorityQueue<Window<K>> bySpan;

  /**
   * A cache of {@code capacity} keys (B) evicting windows of {@code window} keys (W), 1 ≤ W ≤ B.
   *
   * @param onEqual given (cached value, new value) of an equal key, the value to keep
   */
  public WindowCache(int capacity, int window, Comparator<? super K> order, Span<? super K> span,
      BinaryOperator<V> onEqual) {
    if (window < 1 || capacity < window) {
      throw new IllegalArgumentException(
          "need 1 <= window <= capacity, got window=" + window + " capacity=" + capacity);
    }
    this.capacity = capacity;
    this.window = window;
    this.order = order;
    this.span = span;
    this.onEqual = onEqual;
    this.cache = new TreeMap<>(order);
    this.bySpanOrder = (a, b) -> {
      int c = Long.compareUnsigned(a.span(), b.span());
      return c != 0 ? c : order.compare(a.start(), b.start());
    };
    this.bySpan = new PriorityQueue<>(bySpanOrder);
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
   * Adds one key. Returns the evicted window's entries (W of them, sorted by key) if the cache
   * became full, else an empty list.
   */
  public List<Map.Entry<K, V>> add(K key, V value) {
    V old = cache.get(key);
    if (old != null) {
      cache.put(key, onEqual.apply(old, value)); // same key: no window changes
      return List.of();
    }
    cache.put(key, value);
    refreshWindowsTouching(key);
    return cache.size() >= capacity ? evict(best()) : List.of();
  }

  /** The window the next eviction would take, if the cache holds at least W keys. */
  public Optional<Window<K>> bestWindow() {
    return Optional.ofNullable(best());
  }

  /** The live window with the smallest (span, start), discarding stale ones on top; null if none. */
  private Window<K> best() {
    while (!bySpan.isEmpty() && byStart.get(bySpan.peek().start()) != bySpan.peek()) {
      bySpan.poll();
    }
    return bySpan.peek();
  }

  /**
   * Evicts, ahead of time, the most compact window holding {@code key} (or, when fewer than W
   * keys are cached, every cached key): for a caller that must stop holding one key, for example
   * because it pins resources outside the cache. Returns the evicted entries sorted by key, empty
   * if {@code key} is not cached.
   */
  public List<Map.Entry<K, V>> evictContaining(K key) {
    if (!cache.containsKey(key)) {
      return List.of();
    }
    if (byStart.isEmpty()) {
      List<Map.Entry<K, V>> all = new ArrayList<>(cache.entrySet());
      cache.clear();
      byStart.clear();
      return all;
    }
    Window<K> best = null;
    int seen = 0;
    for (K start : cache.headMap(key, true).descendingKeySet()) {
      if (seen++ == window) {
        break;
      }
      Window<K> w = byStart.get(start);
      if (w != null && (best == null || bySpanOrder.compare(w, best) < 0)) {
        best = w;
      }
    }
    if (best == null) { // key is among the last W−1 keys: the last complete window holds it
      K start = null;
      int n = 0;
      for (K k : cache.descendingKeySet()) { // the W-th key from the end starts the last window
        start = k;
        if (++n == window) {
          break;
        }
      }
      best = byStart.get(start);
    }
    return evict(best);
  }

  /** The cached value of {@code key}, or {@code null}. */
  public V get(K key) {
    return cache.get(key);
  }

  /** The cached entries with {@code lo ≤ key ≤ hi}, in key order (a read-only view). */
  public NavigableMap<K, V> range(K lo, K hi) {
    return order.compare(lo, hi) > 0 ? Collections.emptyNavigableMap()
        : Collections.unmodifiableNavigableMap(cache.subMap(lo, true, hi, true));
  }

  /** The whole cache in key order (a read-only view). */
  public NavigableMap<K, V> entries() {
    return Collections.unmodifiableNavigableMap(cache);
  }

  /**
   * Empties the cache at the end of a stream: its entries in key order, cut into runs of W (the
   * last may be shorter). Each run is one bucket.
   */
  public List<List<Map.Entry<K, V>>> drain() {
    List<List<Map.Entry<K, V>>> runs = new ArrayList<>();
    List<Map.Entry<K, V>> run = new ArrayList<>(window);
    for (Map.Entry<K, V> e : cache.entrySet()) {
      run.add(Map.entry(e.getKey(), e.getValue()));
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

  private List<Map.Entry<K, V>> evict(Window<K> w) {
    List<Map.Entry<K, V>> out = new ArrayList<>(window);
    for (Map.Entry<K, V> e : cache.subMap(w.start(), true, w.end(), true).entrySet()) {
      out.add(Map.entry(e.getKey(), e.getValue()));
    }
    for (Map.Entry<K, V> e : out) {
      cache.remove(e.getKey());
      dropWindow(e.getKey());
    }
    refreshWindowsTouching(w.start()); // the W−1 keys before the evicted run now reach past it
    return out;
  }

  /**
   * Recomputes the windows starting at the W−1 cached keys before {@code pivot} and, if it is
   * cached, at {@code pivot} itself: one walk over the ≤ 2W−1 keys around it, O(log C + W), then
   * ≤ W priority updates, O(W log C).
   */
  @SuppressWarnings("unchecked")
  private void refreshWindowsTouching(K pivot) {
    Object[] around = new Object[2 * window];
    int before = 0;
    for (K k : cache.headMap(pivot, false).descendingKeySet()) {
      if (before == window - 1) {
        break;
      }
      around[window - 2 - before++] = k;
    }
    int from = window - 1 - before; // around[from .. window-2] are the predecessors, in order
    int n = window - 1;
    for (K k : cache.tailMap(pivot, true).keySet()) {
      if (n == around.length - 1) {
        break;
      }
      around[n++] = k;
    }
    int starts = cache.containsKey(pivot) ? window : window - 1;
    for (int i = from; i < starts; i++) {
      K start = (K) around[i];
      dropWindow(start);
      if (i + window - 1 < n) {
        K end = (K) around[i + window - 1];
        Window<K> w = new Window<>(start, end, span.between(start, end));
        byStart.put(start, w);
        bySpan.add(w);
        if (bySpan.size() > 2 * byStart.size() + 64) { // mostly stale: rebuild, O(C) once per ~C updates
          bySpan.clear();
          bySpan.addAll(byStart.values());
        }
      }
    }
  }

  private void dropWindow(K start) {
    byStart.remove(start); // its entry in bySpan is now stale
  }
}
