package io.iam.core.engine;

import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKeyComparator;
import java.io.IOException;
import java.util.PriorityQueue;

/**
 * The heap both merging iterators share: the positioned sources by their current key, the
 * smallest on top. Subclasses decide which sources are in it after a seek.
 */
abstract class HeapIterator implements InternalIterator {

  /** Positioned, valid sources by current key. */
  protected final PriorityQueue<InternalIterator> heap;

  HeapIterator(InternalKeyComparator cmp, int sources) {
    this.heap = new PriorityQueue<>(Math.max(1, sources), (a, b) -> cmp.compare(a.key(), b.key()));
  }

  @Override
  public boolean valid() {
    return !heap.isEmpty();
  }

  /** Moves the source on top one entry on, and puts it back if it still has one. */
  protected void advanceTop() throws IOException {
    InternalIterator top = heap.poll();
    top.next();
    if (top.valid()) {
      heap.add(top);
    }
  }

  @Override
  public byte[] key() {
    return heap.peek().key();
  }

  @Override
  public byte[] value() {
    return heap.peek().value();
  }
}
