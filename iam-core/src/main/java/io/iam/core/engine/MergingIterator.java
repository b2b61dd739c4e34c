package io.iam.core.engine;

import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKeyComparator;
import java.io.IOException;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges several internal iterators into one ordered stream. Internal keys are unique across
 * sources (every write has its own sequence number), so no tie-breaking is needed. Closing it
 * closes the children.
 */
final class MergingIterator implements InternalIterator {

  private final InternalKeyComparator cmp;
  private final List<InternalIterator> children;
  private final PriorityQueue<InternalIterator> heap;

  MergingIterator(InternalKeyComparator cmp, List<InternalIterator> children) {
    this.cmp = cmp;
    this.children = List.copyOf(children);
    this.heap = new PriorityQueue<>(Math.max(1, children.size()), (a, b) -> cmp.compare(a.key(), b.key()));
  }

  private void rebuild() {
    heap.clear();
    for (InternalIterator c : children) {
      if (c.valid()) {
        heap.add(c);
      }
    }
  }

  @Override
  public boolean valid() {
    return !heap.isEmpty();
  }

  @Override
  public void seekToFirst() throws IOException {
    for (InternalIterator c : children) {
      c.seekToFirst();
    }
    rebuild();
  }

  @Override
  public void seek(byte[] internalKey) throws IOException {
    for (InternalIterator c : children) {
      c.seek(internalKey);
    }
    rebuild();
  }

  @Override
  public void next() throws IOException {
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

  @Override
  public void close() throws IOException {
    closeAll(children);
  }

  /** Closes every iterator of {@code its}, then throws the first failure, if any. */
  static void closeAll(List<InternalIterator> its) throws IOException {
    IOException first = null;
    for (InternalIterator c : its) {
      try {
        c.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
