package io.iam.core.iter;

import io.iam.core.key.InternalKeyComparator;
import java.io.IOException;
import java.util.List;

/**
 * Iterates a run of sources with disjoint, increasing key ranges (the files of one level, or the
 * files a compaction reads from one level), opening each source only when reached.
 */
public final class ConcatenatingIterator implements InternalIterator {

  /** Opens one source on demand; {@code largest} is its largest internal key. */
  public interface Source {
    byte[] largest();

    InternalIterator open() throws IOException;
  }

  private final InternalKeyComparator cmp;
  private final List<Source> sources;
  private int index = -1;
  private InternalIterator current;

  public ConcatenatingIterator(InternalKeyComparator cmp, List<Source> sources) {
    this.cmp = cmp;
    this.sources = List.copyOf(sources);
  }

  private void open(int i) throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
    index = i;
    if (i < sources.size()) {
      current = sources.get(i).open();
    }
  }

  /** Moves forward over exhausted sources. */
  private void skipEmpty() throws IOException {
    while (current != null && !current.valid()) {
      open(index + 1);
      if (current != null) {
        current.seekToFirst();
      }
    }
  }

  @Override
  public boolean valid() {
    return current != null && current.valid();
  }

  @Override
  public void seekToFirst() throws IOException {
    open(0);
    if (current != null) {
      current.seekToFirst();
    }
    skipEmpty();
  }

  @Override
  public void seek(byte[] internalKey) throws IOException {
    int lo = 0;
    int hi = sources.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cmp.compare(sources.get(mid).largest(), internalKey) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    open(lo);
    if (current != null) {
      current.seek(internalKey);
    }
    skipEmpty();
  }

  @Override
  public void next() throws IOException {
    current.next();
    skipEmpty();
  }

  @Override
  public byte[] key() {
    return current.key();
  }

  @Override
  public byte[] value() {
    return current.value();
  }

  @Override
  public Slice valueSlice() {
    return current.valueSlice();
  }

  @Override
  public void close() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
