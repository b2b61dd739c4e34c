package io.iam.core.cache;

import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongIterator;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link BlockCache} with two LRU pools: a <b>protected</b> pool for the blocks the IAM-tree
 * keeps in memory (paper §5.1.3: every sequence of the appending levels above the mixed level m,
 * and at level m the k−1 newest sequences of each node), and a <b>normal</b> pool for every other
 * block. It follows RocksDB's {@code LRUCache} with {@code high_pri_pool_ratio} (cache/lru_cache.cc:
 * high-priority entries overflowing their pool are demoted to the low-priority end rather than
 * dropped), with one difference the paper needs: a normal block never evicts a protected one.
 *
 * <p><b>Which blocks are protected.</b> The owner says, per file, from which offset on its blocks
 * are protected ({@link #protect(Map)}); a sequence is a contiguous range of its file and newer
 * sequences lie after older ones, so "the k−1 newest sequences" is one offset. Blocks of a file
 * without an entry are normal. When the map changes, resident blocks move between pools at once:
 * those losing protection are demoted (to the most recent end of the normal pool), those gaining it
 * are promoted.
 *
 * <p><b>Sizes.</b> Every block weighs its length plus {@link LruBlockCache#ENTRY_OVERHEAD_BYTES}.
 * Protected blocks take at most {@link #protectedCapacityBytes()} (S); inserting one over S demotes
 * the least recently used protected blocks to the normal pool. Normal blocks take what protected
 * ones leave: inserting one evicts only normal blocks (least recently used first), and a normal
 * block that cannot fit without evicting a protected one is returned without being kept. So
 * {@code protectedUsed ≤ S ≤ capacity} and {@code used ≤ capacity}, exactly, at every moment.
 *
 * <p>Thread-safe: one lock guards both lists and the per-file residency; loaders run outside it.
 * Two threads missing the same block may both load it (the second insert keeps the first copy).
 *
 * <p><b>Index.</b> Blocks are found through their file: file number → that file's offset → entry,
 * in primitive open-addressing maps (fastutil), so a look-up allocates nothing and touches few
 * cache lines, and evicting a file drops its map whole.
 */
public final class PriorityBlockCache implements BlockCache {

  private static final int OVERHEAD = LruBlockCache.ENTRY_OVERHEAD_BYTES;

  /**
   * What {@code blocks} blocks of {@code blockBytes} bytes in all (payloads and trailers, as a
   * file's data region holds them) weigh in this cache: their length plus the per-entry overhead
   * of each. A caller that budgets the protected pool counts with this, not with file sizes.
   */
  public static long weightOf(long blockBytes, long blocks) {
    return blockBytes + blocks * OVERHEAD;
  }

  /** An entry of one of the two doubly linked LRU lists (head = least recently used). */
  private static final class Node {
    final long fileNumber;
    final long offset;
    final byte[] block;
    final long weight;
    boolean prot;
    Node prev;
    Node next;

    Node(long fileNumber, long offset, byte[] block) {
      this.fileNumber = fileNumber;
      this.offset = offset;
      this.block = block;
      this.weight = (long) block.length + OVERHEAD;
    }
  }

  /** A circular list with a sentinel; {@code sentinel.next} is the least recently used. */
  private static final class Lru {
    final Node sentinel = new Node(-1, -1, new byte[0]);
    long bytes;

    Lru() {
      sentinel.prev = sentinel;
      sentinel.next = sentinel;
    }

    void addMostRecent(Node n) {
      n.prev = sentinel.prev;
      n.next = sentinel;
      sentinel.prev.next = n;
      sentinel.prev = n;
      bytes += n.weight;
    }

    void remove(Node n) {
      n.prev.next = n.next;
      n.next.prev = n.prev;
      n.prev = null;
      n.next = null;
      bytes -= n.weight;
    }

    Node leastRecent() {
      return sentinel.next == sentinel ? null : sentinel.next;
    }
  }

  /** Resident blocks of one file: offset → entry. */
  private static final class Residency {
    final Long2ObjectOpenHashMap<Node> blocks = new Long2ObjectOpenHashMap<>();
    long bytes;
  }

  /** Pool changes of one file happen in offset order, so the lists' order is deterministic. */
  private static final Comparator<Node> BY_OFFSET = Comparator.comparingLong(n -> n.offset);

  private final long capacity;
  private final long protectedCapacity;
  private final Object lock = new Object();
  /** @GuardedBy("lock") */
  private final Long2ObjectOpenHashMap<Residency> files = new Long2ObjectOpenHashMap<>();
  /**
   * @GuardedBy("lock") file → the offset from which its blocks are protected; {@link #UNPROTECTED}
   * for files it does not name.
   */
  private Long2LongOpenHashMap protectFrom = protectionMap(Map.of());
  /**
   * Files given blocks by {@link #fillProtected} that no {@link #protect} map has named since: their
   * blocks stay protected until a map names the file (then the map decides) or the file is evicted.
   */
  private final LongOpenHashSet pending = new LongOpenHashSet();
  private final Lru prot = new Lru();
  private final Lru normal = new Lru();
  private final LongAdder protectedHits = new LongAdder();
  private final LongAdder protectedMisses = new LongAdder();
  private final LongAdder normalHits = new LongAdder();
  private final LongAdder normalMisses = new LongAdder();
  private final LongAdder demotions = new LongAdder();
  private final LongAdder overflows = new LongAdder();

  /**
   * @param capacityBytes the most bytes kept in all (block lengths plus per-entry overhead)
   * @param protectedCapacityBytes S, the most protected blocks take, at most {@code capacityBytes}
   */
  public PriorityBlockCache(long capacityBytes, long protectedCapacityBytes) {
    if (capacityBytes < 0 || protectedCapacityBytes < 0 || protectedCapacityBytes > capacityBytes) {
      throw new IllegalArgumentException(
          "need 0 ≤ protected ≤ capacity, got protected " + protectedCapacityBytes + " of " + capacityBytes);
    }
    this.capacity = capacityBytes;
    this.protectedCapacity = protectedCapacityBytes;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The returned array is shared with the cache and other readers: callers must not modify it.
   *
   * @throws IOException exactly as thrown by {@code loader} (nothing is cached then)
   */
  @Override
  public byte[] get(long fileNumber, long offset, Loader loader) throws IOException {
    Objects.requireNonNull(loader, "loader");
    synchronized (lock) {
      Node n = findLocked(fileNumber, offset);
      if (n != null) {
        touchLocked(n);
        (n.prot ? protectedHits : normalHits).increment();
        return n.block;
      }
    }
    byte[] block = loader.load();
    if (block == null) {
      throw new NullPointerException("loader returned null for file " + fileNumber + " offset " + offset);
    }
    synchronized (lock) {
      boolean p = isProtectedLocked(fileNumber, offset);
      (p ? protectedMisses : normalMisses).increment();
      Node n = findLocked(fileNumber, offset);
      if (n != null) { // another thread loaded it meanwhile
        touchLocked(n);
        return n.block;
      }
      insertLocked(new Node(fileNumber, offset, block), p);
    }
    return block;
  }

  @Override
  public void fill(long fileNumber, long offset, byte[] block) {
    Objects.requireNonNull(block, "block");
    synchronized (lock) {
      if (findLocked(fileNumber, offset) == null) {
        insertLocked(new Node(fileNumber, offset, block), isProtectedLocked(fileNumber, offset));
      }
    }
  }

  /**
   * Puts a block just written in the protected pool (unless it is resident already, then moves it
   * there), whether or not the map names its file yet: the writer of an appended sequence fills its
   * blocks before the map that protects them can be computed (the sequence must commit first), and
   * a normal fill is dropped when protected blocks take nearly the whole cache. The file's blocks
   * stay protected until a {@link #protect} map names the file, then follow that map.
   */
  @Override
  public void fillProtected(long fileNumber, long offset, byte[] block) {
    Objects.requireNonNull(block, "block");
    synchronized (lock) {
      pending.add(fileNumber);
      Node n = findLocked(fileNumber, offset);
      if (n == null) {
        insertLocked(new Node(fileNumber, offset, block), true);
      } else if (!n.prot && n.weight <= protectedCapacity) {
        promoteLocked(n);
        shrinkProtectedLocked();
      }
    }
  }

  /**
   * Sets which blocks are protected: for each file in {@code fromOffset}, its blocks at or after
   * that offset; blocks of other files are normal, except those of files {@link #fillProtected}
   * filled that no map has named yet. Resident blocks change pools at once (those promoted beyond
   * S demote the least recently used protected ones). The map is copied.
   */
  public void protect(Map<Long, Long> fromOffset) {
    Long2LongOpenHashMap next = protectionMap(fromOffset);
    synchronized (lock) {
      Long2LongOpenHashMap old = protectFrom;
      protectFrom = next;
      TreeSet<Long> changed = new TreeSet<>(); // in file order, so the result is deterministic
      for (LongIterator it = pending.iterator(); it.hasNext(); ) {
        long f = it.nextLong();
        if (next.containsKey(f)) {
          it.remove(); // named at last: the map decides from now on
          changed.add(f);
        }
      }
      for (Long2LongOpenHashMap.Entry e : old.long2LongEntrySet()) {
        if (e.getLongValue() != next.get(e.getLongKey())) {
          changed.add(e.getLongKey());
        }
      }
      for (LongIterator it = next.keySet().iterator(); it.hasNext(); ) {
        long f = it.nextLong();
        if (!old.containsKey(f)) {
          changed.add(f);
        }
      }
      for (long f : changed) {
        reclassifyLocked(f);
      }
      shrinkProtectedLocked();
    }
  }

  /** Whether a block at this place would be protected now (whether or not it is resident). */
  public boolean isProtected(long fileNumber, long offset) {
    synchronized (lock) {
      return isProtectedLocked(fileNumber, offset);
    }
  }

  @Override
  public void evictFile(long fileNumber) {
    synchronized (lock) {
      pending.remove(fileNumber);
      Residency r = files.remove(fileNumber);
      if (r == null) {
        return;
      }
      for (Node n : r.blocks.values()) {
        (n.prot ? prot : normal).remove(n);
      }
    }
  }

  @Override
  public byte[] peek(long fileNumber, long offset) {
    synchronized (lock) {
      Node n = findLocked(fileNumber, offset);
      return n == null ? null : n.block;
    }
  }

  @Override
  public boolean contains(long fileNumber, long offset) {
    synchronized (lock) {
      return findLocked(fileNumber, offset) != null;
    }
  }

  @Override
  public long residentBlocks(long fileNumber) {
    synchronized (lock) {
      Residency r = files.get(fileNumber);
      return r == null ? 0 : r.blocks.size();
    }
  }

  @Override
  public long residentBytes(long fileNumber) {
    synchronized (lock) {
      Residency r = files.get(fileNumber);
      return r == null ? 0 : r.bytes;
    }
  }

  @Override
  public long capacityBytes() {
    return capacity;
  }

  /** S: the most bytes protected blocks take. */
  public long protectedCapacityBytes() {
    return protectedCapacity;
  }

  @Override
  public long usedBytes() {
    synchronized (lock) {
      return prot.bytes + normal.bytes;
    }
  }

  /** Bytes (with overhead) of the protected blocks now resident. */
  public long protectedUsedBytes() {
    synchronized (lock) {
      return prot.bytes;
    }
  }

  @Override
  public long hits() {
    return protectedHits.sum() + normalHits.sum();
  }

  @Override
  public long misses() {
    return protectedMisses.sum() + normalMisses.sum();
  }

  /** Gets that found a protected block. */
  public long protectedHits() {
    return protectedHits.sum();
  }

  /** Gets that loaded a block that was protected when it arrived. */
  public long protectedMisses() {
    return protectedMisses.sum();
  }

  /** Protected blocks moved to the normal pool (overflow of S or lost protection). */
  public long demotions() {
    return demotions.sum();
  }

  /**
   * The demotions of {@link #demotions} that happened because protected blocks exceeded S, not
   * because the map stopped protecting them: each is a block the owner asked to keep that the
   * pool had no room for (it stays in the normal pool until evicted, and a read of it after that
   * is a protected miss).
   */
  public long overflows() {
    return overflows.sum();
  }

  // ------------------------------------------------------------------ under the lock

  private static final long UNPROTECTED = Long.MAX_VALUE;

  private static Long2LongOpenHashMap protectionMap(Map<Long, Long> fromOffset) {
    Long2LongOpenHashMap m = new Long2LongOpenHashMap(fromOffset.size());
    m.defaultReturnValue(UNPROTECTED);
    fromOffset.forEach((f, from) -> m.put(f.longValue(), Objects.requireNonNull(from, "offset").longValue()));
    return m;
  }

  private Node findLocked(long fileNumber, long offset) {
    Residency r = files.get(fileNumber);
    return r == null ? null : r.blocks.get(offset);
  }

  private boolean isProtectedLocked(long fileNumber, long offset) {
    return offset >= protectFrom.get(fileNumber);
  }

  private void touchLocked(Node n) {
    Lru list = n.prot ? prot : normal;
    list.remove(n);
    list.addMostRecent(n);
  }

  private void insertLocked(Node n, boolean p) {
    if (p && n.weight <= protectedCapacity) {
      n.prot = true;
      prot.addMostRecent(n);
      shrinkProtectedLocked(); // may demote n's elders into the normal pool
      if (!evictNormalLocked(0)) {
        throw new AssertionError("protected blocks exceed the capacity");
      }
    } else {
      if (n.weight > capacity - prot.bytes) {
        return; // would need a protected block's room: returned, not kept
      }
      evictNormalLocked(n.weight);
      n.prot = false;
      normal.addMostRecent(n);
    }
    Residency r = files.get(n.fileNumber);
    if (r == null) {
      r = new Residency();
      files.put(n.fileNumber, r);
    }
    r.blocks.put(n.offset, n);
    r.bytes += n.block.length;
  }

  /** Evicts normal blocks, least recent first, until {@code room} more bytes fit; false if they cannot. */
  private boolean evictNormalLocked(long room) {
    while (prot.bytes + normal.bytes + room > capacity) {
      Node victim = normal.leastRecent();
      if (victim == null) {
        return false;
      }
      removeLocked(victim);
    }
    return true;
  }

  /** Demotes the least recently used protected blocks while the pool exceeds S, counting each as an overflow. */
  private void shrinkProtectedLocked() {
    while (prot.bytes > protectedCapacity) {
      overflows.increment();
      demoteLocked(prot.leastRecent());
    }
  }

  private void promoteLocked(Node n) {
    normal.remove(n);
    n.prot = true;
    prot.addMostRecent(n);
  }

  private void demoteLocked(Node n) {
    prot.remove(n);
    n.prot = false;
    normal.addMostRecent(n);
    demotions.increment();
  }

  /** Moves the file's resident blocks to the pool the protection map now puts them in. */
  private void reclassifyLocked(long fileNumber) {
    Residency r = files.get(fileNumber);
    if (r == null || pending.contains(fileNumber)) {
      return;
    }
    List<Node> moving = new ArrayList<>();
    for (Node n : r.blocks.values()) {
      boolean p = isProtectedLocked(n.fileNumber, n.offset) && n.weight <= protectedCapacity;
      if (p != n.prot) {
        moving.add(n);
      }
    }
    moving.sort(BY_OFFSET);
    for (Node n : moving) {
      if (!n.prot) {
        promoteLocked(n);
      } else {
        demoteLocked(n);
      }
    }
  }

  private void removeLocked(Node n) {
    (n.prot ? prot : normal).remove(n);
    Residency r = files.get(n.fileNumber);
    r.blocks.remove(n.offset);
    r.bytes -= n.block.length;
    if (r.blocks.isEmpty()) {
      files.remove(n.fileNumber);
    }
  }

  /** Checks every invariant (pool sums, bounds, lists and residency agree); for tests. */
  void checkInvariants() {
    synchronized (lock) {
      long p = 0;
      long q = 0;
      int count = 0;
      for (Node n = prot.sentinel.next; n != prot.sentinel; n = n.next) {
        check(n.prot && findLocked(n.fileNumber, n.offset) == n, "protected list entry " + n.fileNumber + "@" + n.offset);
        p += n.weight;
        count++;
      }
      for (Node n = normal.sentinel.next; n != normal.sentinel; n = n.next) {
        check(!n.prot && findLocked(n.fileNumber, n.offset) == n, "normal list entry " + n.fileNumber + "@" + n.offset);
        q += n.weight;
        count++;
      }
      check(p == prot.bytes && q == normal.bytes, "pool sums");
      check(p <= protectedCapacity && p + q <= capacity, "bounds: " + p + " + " + q);
      long resident = 0;
      for (Residency r : files.values()) {
        resident += r.blocks.size();
        long bytes = 0;
        for (Node n : r.blocks.values()) {
          bytes += n.block.length;
        }
        check(bytes == r.bytes, "resident bytes of a file");
      }
      check(resident == count, "residency");
    }
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError("PriorityBlockCache invariant broken: " + what);
    }
  }

  /** The keys resident in the protected pool, least recent first; for tests. */
  List<long[]> protectedKeys() {
    synchronized (lock) {
      List<long[]> out = new ArrayList<>();
      for (Node n = prot.sentinel.next; n != prot.sentinel; n = n.next) {
        out.add(new long[] {n.fileNumber, n.offset});
      }
      return out;
    }
  }
}
