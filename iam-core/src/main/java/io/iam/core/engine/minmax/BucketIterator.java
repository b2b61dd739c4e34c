package io.iam.core.engine.minmax;

import io.iam.core.iter.MergingIterator;
import io.iam.core.iter.HeapIterator;
import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.manifest.FileMeta;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * tree=minmax: one iterator over a version's buckets, which overlap, that opens a bucket only when
 * the scan reaches it, so a range read touches the buckets whose [min, max] meets the range it
 * actually reads, as the paper's IB-tree overlap query does.
 *
 * <p>A seek to t asks the IB-tree for the buckets whose user-key range holds t and seeks those that
 * start at or before t; every bucket that starts after t waits, in order of its smallest key, and
 * joins the merge once the merge's next key would pass its smallest key. A bucket that ends before
 * t is never opened. Each bucket joining counts once ({@code joined}), for the statistics.
 *
 * <p>Internal keys are unique across buckets except for equal copies of one entry, which the
 * store iterator above treats as one version. Not thread-safe; closing it closes what it opened.
 */
final class BucketIterator extends HeapIterator {

  /** Opens a bucket's iterator. */
  interface Opener {
    InternalIterator open(FileMeta bucket) throws IOException;
  }

  private final InternalKeyComparator cmp;
  private final List<FileMeta> buckets;
  /** The buckets' smallest internal keys, in the same order. */
  private final byte[][] smallest;
  private final Map<Long, Integer> position = new HashMap<>();
  private final java.util.function.Function<byte[], List<FileMeta>> stab;
  private final Opener opener;
  private final LongConsumer joined;
  private final InternalIterator[] open;
  /** Buckets from this index on (sorted by smallest key) have not joined the merge since the last seek. */
  private int waiting;

  /**
   * @param buckets the buckets to read (any order)
   * @param stab the buckets (of those) whose user-key range holds a user key: the IB-tree
   */
  BucketIterator(InternalKeyComparator cmp, List<FileMeta> buckets, java.util.function.Function<byte[], List<FileMeta>> stab,
      Opener opener, LongConsumer joined) {
    super(cmp, buckets.size());
    this.cmp = cmp;
    this.buckets = new ArrayList<>(buckets);
    this.buckets.sort(Comparator.comparing(FileMeta::smallest, cmp));
    for (int i = 0; i < this.buckets.size(); i++) {
      position.put(this.buckets.get(i).fileNumber(), i);
    }
    this.stab = stab;
    this.opener = opener;
    this.joined = joined;
    this.smallest = new byte[this.buckets.size()][];
    for (int i = 0; i < smallest.length; i++) {
      smallest[i] = this.buckets.get(i).smallest();
    }
    this.open = new InternalIterator[this.buckets.size()];
    this.waiting = this.buckets.size();
  }

  @Override
  public void seekToFirst() throws IOException {
    heap.clear();
    waiting = 0;
    settle();
  }

  @Override
  public void seek(byte[] internalKey) throws IOException {
    heap.clear();
    int lo = 0;
    int hi = buckets.size();
    while (lo < hi) { // the first bucket starting after the target
      int mid = (lo + hi) >>> 1;
      if (cmp.compare(smallest[mid], internalKey) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    waiting = lo;
    for (FileMeta f : stab.apply(InternalKey.userKey(internalKey))) {
      Integer i = position.get(f.fileNumber());
      if (i != null && i < waiting) {
        join(i, internalKey);
      }
    }
    settle();
  }

  @Override
  public void next() throws IOException {
    advanceTop();
    settle();
  }

  /** Lets waiting buckets join while the next of them starts before the merge's next key. */
  private void settle() throws IOException {
    while (waiting < buckets.size()
        && (heap.isEmpty() || cmp.compare(smallest[waiting], heap.peek().key()) <= 0)) {
      join(waiting++, null);
    }
  }

  private void join(int i, byte[] seekKey) throws IOException {
    if (open[i] == null) {
      open[i] = opener.open(buckets.get(i));
    }
    if (seekKey == null) {
      open[i].seekToFirst();
    } else {
      open[i].seek(seekKey);
    }
    joined.accept(1);
    if (open[i].valid()) {
      heap.add(open[i]);
    }
  }

  @Override
  public void close() throws IOException {
    MergingIterator.closeAll(java.util.Arrays.stream(open).filter(java.util.Objects::nonNull).toList());
  }
}
