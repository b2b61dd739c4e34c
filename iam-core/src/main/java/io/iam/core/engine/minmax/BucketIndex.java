package io.iam.core.engine.minmax;

import io.iam.core.key.InternalKey;
import io.iam.core.key.KeyComparator;
import io.iam.core.minmax.IntervalBTree;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * tree=minmax: the IB-tree of each version's buckets. A Min-Max store keeps its buckets as the
 * files of level 0 of its versions (so the manifest records them like any file); this class gives
 * each version an {@link IntervalBTree} over the buckets' user-key ranges [min, max].
 *
 * <p>The tree of a new version is the tree of the last version indexed, changed by the
 * difference between the two bucket lists: O(n) to find the difference (n buckets) plus O(log n)
 * per bucket added or removed; the trees share their unchanged nodes ({@link
 * IntervalBTree#snapshot()}). A tree is kept as long as its version is reachable (weak keys), so a
 * reader that pinned a version reads that version's tree. Thread-safe.
 */
final class BucketIndex {

  /** Byte keys in the store's user-key order. */
  private final java.util.Comparator<byte[]> order;
  private final Map<Version, IntervalBTree<byte[], FileMeta>> byVersion = new WeakHashMap<>();
  /** The tree of the last version indexed and the tree's handles by file number. Guarded by this. */
  private IntervalBTree<byte[], FileMeta> lastTree;
  private final Map<Long, IntervalBTree.Item<byte[], FileMeta>> lastItems = new HashMap<>();

  BucketIndex(KeyComparator user) {
    this.order = user::compare;
    this.lastTree = new IntervalBTree<>(order);
  }

  /** The last version asked for and its tree: most reads ask for the current version, without the lock. */
  private volatile Indexed recent;

  private record Indexed(Version version, IntervalBTree<byte[], FileMeta> tree) {}

  /** The IB-tree of {@code v}'s buckets (its level-0 files); the caller must not change it. */
  IntervalBTree<byte[], FileMeta> of(Version v) {
    Indexed r = recent;
    if (r != null && r.version() == v) {
      return r.tree();
    }
    IntervalBTree<byte[], FileMeta> tree = ofLocked(v);
    recent = new Indexed(v, tree);
    return tree;
  }

  private synchronized IntervalBTree<byte[], FileMeta> ofLocked(Version v) {
    IntervalBTree<byte[], FileMeta> tree = byVersion.get(v);
    if (tree != null) {
      return tree;
    }
    tree = lastTree.snapshot();
    Set<Long> now = new HashSet<>();
    for (FileMeta f : v.files(0)) {
      now.add(f.fileNumber());
      if (!lastItems.containsKey(f.fileNumber())) {
        lastItems.put(f.fileNumber(), tree.insert(userKey(f.smallest()), userKey(f.largest()), f));
      }
    }
    for (var it = lastItems.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (!now.contains(e.getKey())) {
        tree.remove(e.getValue());
        it.remove();
      }
    }
    lastTree = tree;
    byVersion.put(v, tree);
    return tree;
  }

  /** The buckets of {@code v} whose range holds {@code userKey}. */
  List<FileMeta> stab(Version v, byte[] userKey) {
    return of(v).stab(userKey).stream().map(IntervalBTree.Item::value).toList();
  }

  /**
   * The buckets of {@code v} a seek to {@code from} meets: those with keys at or after it (all if
   * {@code from} is null) and, with an upper bound, a smallest key before the bound.
   */
  List<FileMeta> from(Version v, byte[] from, byte[] upperBound) {
    IntervalBTree<byte[], FileMeta> tree = of(v);
    List<IntervalBTree.Item<byte[], FileMeta>> candidates =
        from != null && upperBound != null ? tree.overlapping(from, upperBound) : tree.all();
    List<FileMeta> out = new java.util.ArrayList<>();
    for (IntervalBTree.Item<byte[], FileMeta> item : candidates) {
      if ((from == null || order.compare(item.hi(), from) >= 0)
          && (upperBound == null || order.compare(item.lo(), upperBound) < 0)) {
        out.add(item.value());
      }
    }
    return out;
  }

  /** The leftmost user key held by the most buckets of {@code v}, and how many hold it. */
  IntervalBTree.Depth<byte[]> deepest(Version v) {
    return of(v).deepest();
  }

  private static byte[] userKey(byte[] internalKey) {
    return InternalKey.userKey(internalKey);
  }
}
