package io.iam.core.memtable;

import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.KeyComparator;
import io.iam.core.key.ValueType;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory component: a sorted map from internal key (user key + {@code (sequence << 8) |
 * type}) to value, ordered by an {@link InternalKeyComparator} so every key's newest version
 * comes first. Entries are only ever added; a delete adds a tombstone.
 *
 * <p>Thread-safe: any number of threads may {@link #add} and read ({@link #get}, {@link
 * #iterator}) at once, without locks (a {@link ConcurrentSkipListMap}). Callers give every entry
 * its own sequence number; adding the same user key, sequence and type twice replaces the value.
 *
 * <p>{@link #approximateBytes()} charges each entry its internal key length, its value length and
 * {@link #ENTRY_OVERHEAD_BYTES}, an estimate of the skip-list node, index levels and two array
 * headers.
 */
public final class MemTable {

  /** Bytes charged per entry on top of its key and value. */
  public static final int ENTRY_OVERHEAD_BYTES = 64;

  private static final byte[] EMPTY = new byte[0];

  private final InternalKeyComparator comparator;
  private final ConcurrentSkipListMap<byte[], byte[]> map;
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong entries = new AtomicLong();
  private final AtomicLong smallestSequence = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong largestSequence = new AtomicLong(-1);

  public MemTable(InternalKeyComparator comparator) {
    this.comparator = Objects.requireNonNull(comparator, "comparator");
    this.map = new ConcurrentSkipListMap<>(comparator);
  }

  public InternalKeyComparator comparator() {
    return comparator;
  }

  /**
   * Adds one version of {@code userKey}. The key is copied into a new internal key; the value is
   * copied too, so the caller may reuse its buffers.
   *
   * @param value the value for {@link ValueType#PUT}; empty or null for {@link ValueType#DELETE}
   * @throws IllegalArgumentException for a sequence outside [0, {@link InternalKey#MAX_SEQUENCE}]
   *     or a tombstone with a value
   */
  public void add(long sequence, ValueType type, byte[] userKey, byte[] value) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(userKey, "userKey");
    if (type != ValueType.DELETE) {
      Objects.requireNonNull(value, "value");
    }
    int valueLength = value == null ? 0 : value.length;
    add(sequence, type, userKey, 0, userKey.length, value == null ? EMPTY : value, 0, valueLength);
  }

  /**
   * {@link #add(long, ValueType, byte[], byte[])} of the user key {@code src[keyOffset, keyOffset
   * + keyLength)} and the value {@code src[valueOffset, valueOffset + valueLength)} (for a delete,
   * {@code valueLength} must be 0): both are copied, each once.
   */
  public void add(long sequence, ValueType type, byte[] src, int keyOffset, int keyLength, int valueOffset,
      int valueLength) {
    add(sequence, type, src, keyOffset, keyLength, src, valueOffset, valueLength);
  }

  private void add(long sequence, ValueType type, byte[] keySrc, int keyOffset, int keyLength, byte[] valueSrc,
      int valueOffset, int valueLength) {
    Objects.requireNonNull(type, "type");
    Objects.checkFromIndexSize(keyOffset, keyLength, keySrc.length);
    Objects.checkFromIndexSize(valueOffset, valueLength, valueSrc.length);
    byte[] stored;
    if (type == ValueType.DELETE) {
      if (valueLength != 0) {
        throw new IllegalArgumentException("a tombstone carries no value");
      }
      stored = EMPTY;
    } else {
      stored = Arrays.copyOfRange(valueSrc, valueOffset, valueOffset + valueLength);
    }
    byte[] internalKey = InternalKey.encode(keySrc, keyOffset, keyLength, sequence, type); // validates the sequence
    // Widen the sequence range first, so every visible entry lies within it.
    smallestSequence.accumulateAndGet(sequence, Math::min);
    largestSequence.accumulateAndGet(sequence, Math::max);
    byte[] previous = map.put(internalKey, stored);
    if (previous == null) {
      entries.incrementAndGet();
      bytes.addAndGet(internalKey.length + stored.length + ENTRY_OVERHEAD_BYTES);
    } else {
      bytes.addAndGet(stored.length - previous.length);
    }
  }

  /**
   * Removes one internal entry, if present (tree=minmax: its write cache drops the entries it
   * evicted into a bucket once no reader needs them here). The sequence range is not narrowed.
   */
  public void remove(byte[] internalKey) {
    byte[] previous = map.remove(internalKey);
    if (previous != null) {
      entries.decrementAndGet();
      bytes.addAndGet(-(internalKey.length + previous.length + ENTRY_OVERHEAD_BYTES));
    }
  }

  /**
   * The newest version of {@code userKey} with sequence ≤ {@code snapshotSequence} (a snapshot
   * beyond {@link InternalKey#MAX_SEQUENCE} reads the latest version).
   */
  public Lookup get(byte[] userKey, long snapshotSequence) {
    long snapshot = Math.min(snapshotSequence, InternalKey.MAX_SEQUENCE);
    Map.Entry<byte[], byte[]> e = map.ceilingEntry(InternalKey.seekKey(userKey, snapshot));
    if (e == null) {
      return Lookup.ABSENT;
    }
    byte[] k = e.getKey();
    KeyComparator user = comparator.userComparator();
    if (user.compare(k, 0, InternalKey.userKeyLength(k.length), userKey, 0, userKey.length) != 0) {
      return Lookup.ABSENT;
    }
    long sequence = InternalKey.sequence(k);
    return switch (InternalKey.type(k)) {
      case PUT -> Lookup.found(sequence, e.getValue());
      case DELETE -> Lookup.deleted(sequence);
    };
  }

  /** A new, unpositioned iterator over all internal entries (see {@link MemIterator}). */
  public MemIterator iterator() {
    return new MemIterator(map);
  }

  /** Estimated memory held: keys + values + {@link #ENTRY_OVERHEAD_BYTES} per entry. */
  public long approximateBytes() {
    return bytes.get();
  }

  /** Number of internal entries (puts and tombstones). */
  public long entries() {
    return entries.get();
  }

  public boolean isEmpty() {
    return map.isEmpty();
  }

  /** The smallest sequence number added, or -1 if none. */
  public long smallestSequence() {
    long s = smallestSequence.get();
    return s == Long.MAX_VALUE ? -1 : s;
  }

  /** The largest sequence number added, or -1 if none. */
  public long largestSequence() {
    return largestSequence.get();
  }
}
