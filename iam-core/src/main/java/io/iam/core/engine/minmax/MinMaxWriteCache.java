package io.iam.core.engine.minmax;

import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.ValueType;
import io.iam.core.memtable.MemTable;
import io.iam.core.minmax.ByteKeySpan;
import io.iam.core.minmax.WindowCache;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * tree=minmax: the sorted write cache between the memtables and the buckets, in memory only.
 *
 * <ul>
 *   <li>The <b>window logic</b> is the kernel's {@link WindowCache} over internal keys (user key,
 *       then newest version first), with spans measured on the user keys ({@link ByteKeySpan}).
 *       Every version takes a slot, as in a memtable, so snapshots read the cache like a memtable.
 *       It holds the keys only; the values are in the readers' memtable.
 *   <li>What <b>readers</b> see is a {@link MemTable} holding the same entries. An evicted window
 *       leaves it only once no reader can miss it: a reader first takes a ticket ({@link
 *       #openRead()}), then pins a version; entries evicted by installs after the ticket stay
 *       visible until the ticket is returned, and entries evicted before it are in the version.
 *       A reader may see an entry both here and in a bucket; the copies are equal.
 *   <li>For <b>durability</b> it knows the sequence of each cached entry and the log each drained
 *       memtable came from: {@link #oldestLog} is the oldest log that may hold an entry still
 *       only in memory, and no log from it on may be deleted.
 * </ul>
 *
 * <p>The writing methods are called by one thread at a time (the store's flush thread); the
 * reading ones ({@link #visible()}, tickets) by any thread.
 */
final class MinMaxWriteCache {

  private final WindowCache<byte[], Boolean> windows;
  private final MemTable visible;
  /** Sequence → internal key of every entry in {@link #windows}. Flush thread only. */
  private final TreeMap<Long, byte[]> bySequence = new TreeMap<>();
  /** First sequence of each drained memtable → the number of its log. Flush thread only. */
  private final TreeMap<Long, Long> logs = new TreeMap<>();
  /** Entries with sequences up to this went through {@link #add}; set on open, then by the flush thread. */
  private long drainedUpTo;

  /** Guarded by this: installs so far, open tickets by install count, and entries waiting to leave {@link #visible}. */
  private long installs;
  private final TreeMap<Long, Integer> tickets = new TreeMap<>();
  private final Deque<Retired> retired = new ArrayDeque<>();

  private record Retired(long install, List<byte[]> keys) {}

  MinMaxWriteCache(int capacity, int window, InternalKeyComparator cmp, long drainedUpTo) {
    this.windows = new WindowCache<>(capacity, window, cmp,
        (lo, hi) -> ByteKeySpan.between(lo, InternalKey.userKeyLength(lo.length), hi, InternalKey.userKeyLength(hi.length)),
        (cached, again) -> cached);
    this.visible = new MemTable(cmp);
    this.drainedUpTo = drainedUpTo;
  }

  /** Entries with sequences up to this were added already (or are in buckets): skip them. */
  long drainedUpTo() {
    return drainedUpTo;
  }

  /** Records that the memtable whose first sequence is {@code firstSequence} came from log {@code log}. */
  void noteLog(long firstSequence, long log) {
    logs.putIfAbsent(firstSequence, log);
  }

  /**
   * Adds one entry (in sequence order, above {@link #drainedUpTo()}); returns the internal keys of
   * the window evicted, sorted, or an empty list. Their values stay in {@link #visible()} until
   * {@link #installed} and the readers are done.
   */
  List<byte[]> add(byte[] internalKey, byte[] value) {
    long seq = InternalKey.sequence(internalKey);
    drainedUpTo = Math.max(drainedUpTo, seq);
    ValueType type = InternalKey.type(internalKey);
    visible.add(seq, type, InternalKey.userKey(internalKey), type == ValueType.PUT ? value : null);
    bySequence.put(seq, internalKey);
    return forget(windows.add(internalKey, Boolean.TRUE));
  }

  /**
   * Evicts early the most compact window holding the oldest cached entry, so that its log can go;
   * empty if the cache is empty.
   */
  List<byte[]> evictOldest() {
    return bySequence.isEmpty() ? List.of() : forget(windows.evictContaining(bySequence.firstEntry().getValue()));
  }

  private List<byte[]> forget(List<Map.Entry<byte[], Boolean>> evicted) {
    List<byte[]> keys = new ArrayList<>(evicted.size());
    for (Map.Entry<byte[], Boolean> e : evicted) {
      bySequence.remove(InternalKey.sequence(e.getKey()));
      keys.add(e.getKey());
    }
    return keys;
  }

  /** Entries in the cache (not counting evicted ones readers may still see). */
  int size() {
    return windows.size();
  }

  /** The smallest sequence in the cache, or -1 if it is empty. */
  long oldestSequence() {
    return bySequence.isEmpty() ? -1 : bySequence.firstKey();
  }

  /**
   * The oldest log that may hold a cached entry, or {@code fallback} if the cache is empty (or
   * if {@code fallback} is older). Drops what it knows of older logs.
   */
  long oldestLog(long fallback) {
    if (bySequence.isEmpty()) {
      logs.headMap(drainedUpTo, true).clear();
      return fallback;
    }
    Map.Entry<Long, Long> e = logs.floorEntry(bySequence.firstKey());
    if (e == null) {
      return fallback;
    }
    logs.headMap(e.getKey(), false).clear();
    return Math.min(e.getValue(), fallback);
  }

  /** How many of the drained memtables' logs the cache still pins. */
  int pinnedLogs() {
    if (bySequence.isEmpty()) {
      return 0;
    }
    Long from = logs.floorKey(bySequence.firstKey());
    return from == null ? 0 : logs.tailMap(from, true).size();
  }

  /** What readers read: the cached entries, and evicted ones some reader may still need. */
  MemTable visible() {
    return visible;
  }

  /** Called once the buckets holding {@code keys} are in the current version. */
  synchronized void installed(List<byte[]> keys) {
    installs++;
    retired.addLast(new Retired(installs, keys));
    collect();
  }

  /** A ticket to read with; take it before pinning the version, return it with {@link #closeRead}. */
  synchronized long openRead() {
    tickets.merge(installs, 1, Integer::sum);
    return installs;
  }

  synchronized void closeRead(long ticket) {
    tickets.computeIfPresent(ticket, (k, n) -> n == 1 ? null : n - 1);
    collect();
  }

  /** Removes from {@link #visible} the entries of installs no open ticket predates. Holds this. */
  private void collect() {
    long oldest = tickets.isEmpty() ? Long.MAX_VALUE : tickets.firstKey();
    while (!retired.isEmpty() && retired.peekFirst().install() <= oldest) {
      retired.pollFirst().keys().forEach(visible::remove);
    }
  }

  /** For tests: the entries readers can see, evicted ones not yet collected included. */
  long visibleEntries() {
    return visible.entries();
  }
}
