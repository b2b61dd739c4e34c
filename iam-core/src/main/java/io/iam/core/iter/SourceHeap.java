package io.iam.core.iter;

import io.iam.core.key.InternalKeyComparator;
import java.util.Arrays;

/**
 * A binary min-heap of positioned iterators ordered by their current key, with the step a merge
 * takes for every entry: the top moved on, so put it back in its place ({@link #topAdvanced}).
 * That step sifts the top down once, where a {@code PriorityQueue} would remove it (one sift
 * down) and add it again (one sift up), and reads the moving iterator's key once per step.
 *
 * <p>Keys must be distinct across the iterators in the heap (internal keys are: every write has
 * its own sequence number), so the order is total and needs no tie-break. Not thread-safe.
 */
public final class SourceHeap {

  private final InternalKeyComparator cmp;
  private InternalIterator[] items;
  private int size;

  public SourceHeap(InternalKeyComparator cmp, int expected) {
    this.cmp = cmp;
    this.items = new InternalIterator[Math.max(1, expected)];
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The iterator with the smallest current key; null if the heap is empty. */
  public InternalIterator peek() {
    return size == 0 ? null : items[0];
  }

  public void clear() {
    Arrays.fill(items, 0, size, null);
    size = 0;
  }

  /** Adds a valid (positioned) iterator. */
  public void add(InternalIterator it) {
    if (size == items.length) {
      items = Arrays.copyOf(items, 2 * items.length);
    }
    int i = size++;
    byte[] key = it.key();
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (cmp.compare(items[parent].key(), key) <= 0) {
        break;
      }
      items[i] = items[parent];
      i = parent;
    }
    items[i] = it;
  }

  /**
   * Restores the order after the top iterator moved: it goes down to its place, or leaves the
   * heap if it is no longer valid.
   */
  public void topAdvanced() {
    InternalIterator top = items[0];
    if (!top.valid()) {
      top = items[--size];
      items[size] = null;
      if (size == 0) {
        return;
      }
    }
    siftDown(top);
  }

  /** Places {@code it} at the root's slot and sifts it down. */
  private void siftDown(InternalIterator it) {
    byte[] key = it.key();
    int i = 0;
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      InternalIterator smaller = items[child];
      byte[] smallerKey = smaller.key();
      int right = child + 1;
      if (right < size) {
        byte[] rightKey = items[right].key();
        if (cmp.compare(rightKey, smallerKey) < 0) {
          child = right;
          smaller = items[right];
          smallerKey = rightKey;
        }
      }
      if (cmp.compare(key, smallerKey) <= 0) {
        break;
      }
      items[i] = smaller;
      i = child;
    }
    items[i] = it;
  }
}
