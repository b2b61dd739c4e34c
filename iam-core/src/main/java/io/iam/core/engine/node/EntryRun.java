package io.iam.core.engine.node;

import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKeyComparator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A sorted run of internal entries held in memory: a node job reads its parent's sequences once,
 * merged, and hands each child its share from here, instead of every child merging the parent's
 * files again for its key range. Immutable; its iterators are independent, so the child writers
 * read it side by side.
 */
final class EntryRun {

  private final InternalKeyComparator cmp;
  private final byte[][] keys;
  private final byte[][] values;

  /** The entries, in {@code cmp}'s order; the arrays are kept, not copied, and must not change. */
  EntryRun(InternalKeyComparator cmp, List<byte[]> keys, List<byte[]> values) {
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException(keys.size() + " keys but " + values.size() + " values");
    }
    this.cmp = cmp;
    this.keys = keys.toArray(new byte[0][]);
    this.values = values.toArray(new byte[0][]);
  }

  int size() {
    return keys.length;
  }

  /** A new cursor over the run, positioned nowhere. */
  InternalIterator iterator() {
    return new InternalIterator() {
      private int at = keys.length;

      @Override
      public boolean valid() {
        return at < keys.length;
      }

      @Override
      public void seekToFirst() {
        at = 0;
      }

      @Override
      public void seek(byte[] internalKey) {
        int lo = 0;
        int hi = keys.length;
        while (lo < hi) {
          int mid = (lo + hi) >>> 1;
          if (cmp.compare(keys[mid], internalKey) < 0) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        at = lo;
      }

      @Override
      public void next() {
        requireValid();
        at++;
      }

      @Override
      public byte[] key() {
        requireValid();
        return keys[at];
      }

      @Override
      public byte[] value() {
        requireValid();
        return values[at];
      }

      private void requireValid() {
        if (at >= keys.length) {
          throw new NoSuchElementException("the iterator is not positioned on an entry");
        }
      }
    };
  }
}
