package io.iam.core.iter;

import io.iam.core.key.InternalKeyComparator;
import java.io.IOException;
import java.util.List;

/**
 * Merges several internal iterators into one ordered stream. Internal keys are unique across
 * sources (every write has its own sequence number), so no tie-breaking is needed. Closing it
 * closes the children.
 */
public final class MergingIterator extends HeapIterator {

  private final List<InternalIterator> children;

  public MergingIterator(InternalKeyComparator cmp, List<InternalIterator> children) {
    super(cmp, children.size());
    this.children = List.copyOf(children);
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
    advanceTop();
  }

  @Override
  public void close() throws IOException {
    closeAll(children);
  }

  /** Closes every iterator of {@code its}, then throws the first failure, if any. */
  public static void closeAll(List<InternalIterator> its) throws IOException {
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
