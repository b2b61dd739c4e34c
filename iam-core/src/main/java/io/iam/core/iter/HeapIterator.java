package io.iam.core.iter;

import io.iam.core.key.InternalKeyComparator;
import java.io.IOException;

/**
 * The heap both merging iterators share: the positioned sources by their current key, the
 * smallest on top. Subclasses decide which sources are in it after a seek.
 */
public abstract class HeapIterator implements InternalIterator {

  /** Positioned, valid sources by current key. */
  protected final SourceHeap heap;

  protected HeapIterator(InternalKeyComparator cmp, int sources) {
    this.heap = new SourceHeap(cmp, sources);
  }

  @Override
  public boolean valid() {
    return !heap.isEmpty();
  }

  /** Moves the source on top one entry on, and puts it back if it still has one. */
  protected void advanceTop() throws IOException {
    heap.peek().next();
    heap.topAdvanced();
  }

  @Override
  public byte[] key() {
    return heap.peek().key();
  }

  @Override
  public byte[] value() {
    return heap.peek().value();
  }

  @Override
  public Slice valueSlice() {
    return heap.peek().valueSlice();
  }
}
