package io.iam.core.tree.iam;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.function.Predicate;

/**
 * Translates a host's byte[] keys to the kernel's {@code long} keys and back, by rank: the distinct
 * keys that matter for one plan (node range ends, the keys of what is being flushed) are sorted and
 * numbered 1, 2, …, n. Rank 0 stands for an open low end and n + 1 for an open high end, for hosts
 * whose node ranges may be unbounded (HBase's empty row); a host whose ranges are closed never
 * meets them. Ranks keep the order exactly, so every plan the kernel makes in rank space (ranges,
 * "the next key", a gap's midpoint) names real keys again. Used by the embedded engine and by the
 * HBase store engine's planner alike. Immutable.
 */
public final class KeyRanks {

  private final Comparator<byte[]> order;
  private final byte[][] keys;
  /** Whether a key is an open end. */
  private final Predicate<byte[]> isOpen;
  /** The key an open end translates back to, or null if the host has none. */
  private final byte[] open;
  /**
   * The rank of every key array the ranks were built from, by identity: node boundaries are looked
   * up again and again (every node of every level, for each plan), and a hash lookup of the very
   * same array costs far less than a binary search comparing bytes. Other arrays are searched.
   */
  private final IdentityHashMap<byte[], Integer> ranksOfInputs;

  private KeyRanks(Comparator<byte[]> order, byte[][] keys, Predicate<byte[]> isOpen, byte[] open,
      IdentityHashMap<byte[], Integer> ranksOfInputs) {
    this.order = order;
    this.keys = keys;
    this.isOpen = isOpen;
    this.open = open;
    this.ranksOfInputs = ranksOfInputs;
  }

  /** The ranks of {@code keys} (any order, may repeat) in {@code order}; no key is open. */
  public static KeyRanks of(Collection<byte[]> keys, Comparator<byte[]> order) {
    return of(keys, order, k -> false, null);
  }

  /**
   * The ranks of {@code keys} (any order, may repeat; null and open keys are skipped) in {@code
   * order}.
   *
   * @param isOpen whether a key is an open end
   * @param open what ranks 0 and n + 1 translate back to
   */
  public static KeyRanks of(Collection<byte[]> keys, Comparator<byte[]> order, Predicate<byte[]> isOpen, byte[] open) {
    List<byte[]> all = new ArrayList<>(keys.size());
    for (byte[] k : keys) {
      if (k != null && !isOpen.test(k)) {
        all.add(k);
      }
    }
    all.sort(order);
    List<byte[]> distinct = new ArrayList<>(all.size());
    IdentityHashMap<byte[], Integer> ranks = new IdentityHashMap<>(all.size());
    for (byte[] k : all) {
      if (distinct.isEmpty() || order.compare(distinct.get(distinct.size() - 1), k) != 0) {
        distinct.add(k);
      }
      ranks.put(k, distinct.size() - 1);
    }
    return new KeyRanks(order, distinct.toArray(new byte[0][]), isOpen, open, ranks);
  }

  /** n, the number of distinct keys. */
  public int size() {
    return keys.length;
  }

  /** The rank of an open high end, n + 1. */
  public long top() {
    return keys.length + 1L;
  }

  /**
   * The rank of {@code key}, 1 to n.
   *
   * @throws IllegalArgumentException if the key was not ranked
   */
  public long rank(byte[] key) {
    Integer known = ranksOfInputs.get(key);
    int i = known != null ? known : Arrays.binarySearch(keys, key, order);
    if (i < 0) {
      throw new IllegalArgumentException("key not in the rank space");
    }
    return i + 1L;
  }

  /** The rank of low end {@code lo}: 0 if it is open, else its rank. */
  public long lo(byte[] lo) {
    return isOpen.test(lo) ? 0 : rank(lo);
  }

  /** The rank of high end {@code hi}: n + 1 if it is open, else its rank. */
  public long hi(byte[] hi) {
    return isOpen.test(hi) ? top() : rank(hi);
  }

  /**
   * The key of {@code rank} (a copy); the open key for 0 and n + 1.
   *
   * @throws IllegalArgumentException for a rank outside 0..n+1, or an open end's rank where the
   *     host has no open key
   */
  public byte[] key(long rank) {
    if (rank >= 1 && rank <= keys.length) {
      return keys[(int) rank - 1].clone();
    }
    if ((rank == 0 || rank == top()) && open != null) {
      return open;
    }
    throw new IllegalArgumentException("rank " + rank + " outside " + (open != null ? "0.." + top() : "1.." + keys.length));
  }
}
