package io.iam.core.memtable;

import io.iam.core.iter.InternalIterator;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentNavigableMap;

/**
 * A cursor over a {@link MemTable}'s internal entries in internal-key order (user key ascending,
 * newest version first). It starts unpositioned: call {@link #seekToFirst()} or {@link
 * #seek(byte[])} first.
 *
 * <p>Weakly consistent: it never fails because of concurrent {@code add}s, and it may or may not
 * show entries added after it was positioned (callers filter by sequence number). Keys and values
 * are the memtable's own arrays, not copies: do not modify them. Not thread-safe itself: use one
 * iterator per thread.
 */
public final class MemIterator implements InternalIterator {

  private final ConcurrentNavigableMap<byte[], byte[]> map;
  private Iterator<Map.Entry<byte[], byte[]>> it;
  private Map.Entry<byte[], byte[]> current;

  MemIterator(ConcurrentNavigableMap<byte[], byte[]> map) {
    this.map = map;
  }

  /** Positions at the first entry (invalid if the memtable is empty). */
  @Override
  public void seekToFirst() {
    position(map.entrySet().iterator());
  }

  /** Positions at the first entry whose internal key is ≥ {@code internalKey}. */
  @Override
  public void seek(byte[] internalKey) {
    position(map.tailMap(internalKey, true).entrySet().iterator());
  }

  /** Whether the iterator is at an entry. */
  @Override
  public boolean valid() {
    return current != null;
  }

  /** Moves to the next entry; may become invalid. */
  @Override
  public void next() {
    requireValid();
    current = it.hasNext() ? it.next() : null;
  }

  /** The internal key of the current entry. */
  @Override
  public byte[] key() {
    requireValid();
    return current.getKey();
  }

  /** The value of the current entry (empty for a tombstone). */
  @Override
  public byte[] value() {
    requireValid();
    return current.getValue();
  }

  private void position(Iterator<Map.Entry<byte[], byte[]>> iterator) {
    it = iterator;
    current = it.hasNext() ? it.next() : null;
  }

  private void requireValid() {
    if (current == null) {
      throw new NoSuchElementException("iterator is not positioned at an entry");
    }
  }
}
