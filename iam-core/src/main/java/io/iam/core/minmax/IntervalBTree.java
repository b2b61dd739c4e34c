package io.iam.core.minmax;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * The paper's IB-tree (§4, Fig. 3): buckets indexed by their key interval [lo, hi], answering
 * "which buckets overlap this key / this key range".
 *
 * <p><b>Design.</b> The interval tree of Cormen et al. §14.3 (the paper's reference [7]): a
 * balanced search tree (AVL) ordered by the low endpoint, each node augmented with the largest high
 * endpoint in its subtree. A search skips a subtree whose largest high endpoint is below the query,
 * and the right subtree of a node whose low endpoint is above the query. This is the IB-tree's own
 * rule (entries sorted on the low value, a per-node {@code Max}) with fan-out 2 instead of
 * page-sized nodes; the kernel keeps it in memory, and page-sized nodes only matter once it is
 * stored on disk. Neither the JDK nor Guava has an index of overlapping intervals (Guava's
 * {@code RangeMap} forbids overlaps and {@code RangeSet} coalesces them), hence this class.
 *
 * <p><b>Complexity</b> (n intervals, k answers): insert and remove O(log n); a query
 * O(min(n, (k + 1) log n)); memory O(n). Equal intervals are allowed: entries are ordered by
 * (lo, hi, insertion number).
 *
 * <p><b>Snapshots.</b> Nodes are never changed once built: an insert or remove copies the
 * O(log n) nodes on its path (path copying), so {@link #snapshot()} is O(1) and a snapshot keeps
 * answering for the intervals it had while the tree goes on changing. The engine keeps one
 * snapshot per version of its bucket list.
 *
 * <p>Not thread-safe to change; a snapshot that nobody changes may be read by any number of
 * threads. Pure.
 *
 * @param <K> the endpoint type, ordered by the comparator given ({@link #ofLongs()} for longs)
 * @param <T> the payload (for Min-Max, a {@link Bucket})
 */
public final class IntervalBTree<K, T> {

  /** One indexed interval and its payload; also the handle that {@link #remove} takes. */
  public static final class Item<K, T> {
    private final K lo;
    private final K hi;
    private final long order;
    private final T value;

    private Item(K lo, K hi, long order, T value) {
      this.lo = lo;
      this.hi = hi;
      this.order = order;
      this.value = value;
    }

    public K lo() {
      return lo;
    }

    public K hi() {
      return hi;
    }

    public T value() {
      return value;
    }


    @Override
    public String toString() {
      return "[" + lo + ", " + hi + "]=" + value;
    }
  }

  /** A node; changed only while it is being built (a fresh copy), never once it is in a tree. */
  private static final class Node<K, T> {
    final Item<K, T> item;
    Node<K, T> left;
    Node<K, T> right;
    int height = 1;
    K maxHi;

    Node(Item<K, T> item) {
      this.item = item;
      this.maxHi = item.hi;
    }

    Node<K, T> copy() {
      Node<K, T> c = new Node<>(item);
      c.left = left;
      c.right = right;
      c.height = height;
      c.maxHi = maxHi;
      return c;
    }
  }

  private final Comparator<? super K> cmp;
  private Node<K, T> root;
  private int size;
  private long inserted;

  /** An empty tree over endpoints ordered by {@code cmp}. */
  public IntervalBTree(Comparator<? super K> cmp) {
    this.cmp = cmp;
  }

  private IntervalBTree(IntervalBTree<K, T> from) {
    this.cmp = from.cmp;
    this.root = from.root;
    this.size = from.size;
    this.inserted = from.inserted;
  }

  /** An empty tree over {@code long} endpoints. */
  public static <T> IntervalBTree<Long, T> ofLongs() {
    return new IntervalBTree<>(Long::compare);
  }

  /**
   * A tree holding the same intervals, in O(1): the two share their nodes and change
   * independently from now on. Handles ({@link Item}) stay valid in both.
   */
  public IntervalBTree<K, T> snapshot() {
    return new IntervalBTree<>(this);
  }

  /** Number of intervals. */
  public int size() {
    return size;
  }

  /** Indexes {@code value} under [lo, hi], lo ≤ hi; returns the handle to remove it with. */
  public Item<K, T> insert(K lo, K hi, T value) {
    if (cmp.compare(lo, hi) > 0) {
      throw new IllegalArgumentException("empty interval [" + lo + ", " + hi + "]");
    }
    Item<K, T> item = new Item<>(lo, hi, inserted++, value);
    root = insert(root, item);
    size++;
    return item;
  }

  /** Removes an interval inserted earlier into this tree; returns whether it was there. */
  public boolean remove(Item<K, T> item) {
    int before = size;
    root = remove(root, item);
    return size < before;
  }

  /** The intervals containing {@code key}, in (lo, hi, insertion) order. */
  public List<Item<K, T>> stab(K key) {
    return overlapping(key, key);
  }

  /** The intervals overlapping [lo, hi] (sharing at least one key), in (lo, hi, insertion) order. */
  public List<Item<K, T>> overlapping(K lo, K hi) {
    List<Item<K, T>> out = new ArrayList<>();
    if (cmp.compare(lo, hi) <= 0) {
      collect(root, lo, hi, out::add);
    }
    return out;
  }

  /** Every interval in (lo, hi, insertion) order. */
  public List<Item<K, T>> all() {
    List<Item<K, T>> out = new ArrayList<>();
    inOrder(root, out::add);
    return out;
  }

  private static <K, T> void inOrder(Node<K, T> n, Consumer<Item<K, T>> out) {
    if (n != null) {
      inOrder(n.left, out);
      out.accept(n.item);
      inOrder(n.right, out);
    }
  }

  /** A point and the number of intervals holding it. */
  public record Depth<K>(K at, int count) {}

  /**
   * The leftmost point held by the most intervals, and how many hold it (count 0 and a null point
   * when the tree is empty). A sweep over the sorted endpoints, O(n log n); endpoints are closed,
   * so an interval starting at x and one ending at x share x.
   */
  public Depth<K> deepest() {
    List<Item<K, T>> items = all();
    List<K> starts = new ArrayList<>(items.size());
    List<K> ends = new ArrayList<>(items.size());
    for (Item<K, T> it : items) {
      starts.add(it.lo);
      ends.add(it.hi);
    }
    ends.sort(cmp); // starts are already in order
    int depth = 0;
    int best = 0;
    K at = null;
    for (int i = 0, j = 0; i < starts.size(); ) {
      if (cmp.compare(starts.get(i), ends.get(j)) <= 0) { // a start at x counts before an end at x
        if (++depth > best) {
          best = depth;
          at = starts.get(i);
        }
        i++;
      } else {
        depth--;
        j++;
      }
    }
    return new Depth<>(at, best);
  }

  /** The tree's height (1 for a single node, 0 when empty): at most 1.44 log2(n + 2). */
  public int height() {
    return height(root);
  }

  /**
   * Checks the AVL balance, the search order and every node's max-endpoint annotation; throws
   * {@link IllegalStateException} on a violation. O(n), for tests.
   */
  public void checkInvariants() {
    int[] count = {0};
    check(root, count);
    if (count[0] != size) {
      throw new IllegalStateException("size " + size + " but " + count[0] + " nodes");
    }
  }

  private int compare(Item<K, ?> a, Item<K, ?> b) {
    int c = cmp.compare(a.lo, b.lo);
    if (c == 0) {
      c = cmp.compare(a.hi, b.hi);
    }
    return c != 0 ? c : Long.compare(a.order, b.order);
  }

  private void collect(Node<K, T> n, K lo, K hi, Consumer<Item<K, T>> out) {
    if (n == null || cmp.compare(n.maxHi, lo) < 0) {
      return; // nothing below reaches lo
    }
    collect(n.left, lo, hi, out);
    if (cmp.compare(n.item.lo, hi) <= 0) {
      if (cmp.compare(n.item.hi, lo) >= 0) {
        out.accept(n.item);
      }
      collect(n.right, lo, hi, out); // right subtree starts at ≥ n.item.lo; only useful if ≤ hi
    }
  }

  private Node<K, T> insert(Node<K, T> n, Item<K, T> item) {
    if (n == null) {
      return new Node<>(item);
    }
    Node<K, T> c = n.copy();
    if (compare(item, n.item) < 0) {
      c.left = insert(n.left, item);
    } else {
      c.right = insert(n.right, item);
    }
    return rebalance(c);
  }

  private Node<K, T> remove(Node<K, T> n, Item<K, T> item) {
    if (n == null) {
      return null;
    }
    int c = compare(item, n.item);
    if (c == 0 && n.item != item) {
      return n; // an equal-looking handle of another tree
    }
    if (c == 0) {
      size--;
      if (n.left == null || n.right == null) {
        return n.left != null ? n.left : n.right;
      }
      Node<K, T> succ = n.right;
      while (succ.left != null) {
        succ = succ.left;
      }
      Node<K, T> replacement = new Node<>(succ.item);
      replacement.right = removeMin(n.right);
      replacement.left = n.left;
      return rebalance(replacement);
    }
    Node<K, T> child = c < 0 ? n.left : n.right;
    Node<K, T> removed = remove(child, item);
    if (removed == child) {
      return n; // not found below: nothing to copy
    }
    Node<K, T> copy = n.copy();
    if (c < 0) {
      copy.left = removed;
    } else {
      copy.right = removed;
    }
    return rebalance(copy);
  }

  private Node<K, T> removeMin(Node<K, T> n) {
    if (n.left == null) {
      return n.right;
    }
    Node<K, T> c = n.copy();
    c.left = removeMin(n.left);
    return rebalance(c);
  }

  private static int height(Node<?, ?> n) {
    return n == null ? 0 : n.height;
  }

  /** Recomputes a fresh node's height and max endpoint from its children. */
  private void update(Node<K, T> n) {
    n.height = 1 + Math.max(height(n.left), height(n.right));
    n.maxHi = subtreeMaxHi(n);
  }

  /** The largest high endpoint below {@code n}, from its children's annotations. */
  private K subtreeMaxHi(Node<K, T> n) {
    K m = n.item.hi;
    m = n.left == null || cmp.compare(n.left.maxHi, m) <= 0 ? m : n.left.maxHi;
    return n.right == null || cmp.compare(n.right.maxHi, m) <= 0 ? m : n.right.maxHi;
  }

  /** Rebalances a fresh node {@code n}; its children may be shared and are copied before changing. */
  private Node<K, T> rebalance(Node<K, T> n) {
    update(n);
    int balance = height(n.left) - height(n.right);
    if (balance > 1) {
      if (height(n.left.left) < height(n.left.right)) {
        n.left = rotateLeft(n.left.copy());
      }
      return rotateRight(n);
    }
    if (balance < -1) {
      if (height(n.right.right) < height(n.right.left)) {
        n.right = rotateRight(n.right.copy());
      }
      return rotateLeft(n);
    }
    return n;
  }

  /** Rotates a fresh node right; its left child is copied. */
  private Node<K, T> rotateRight(Node<K, T> n) {
    Node<K, T> l = n.left.copy();
    n.left = l.right;
    l.right = n;
    update(n);
    update(l);
    return l;
  }

  /** Rotates a fresh node left; its right child is copied. */
  private Node<K, T> rotateLeft(Node<K, T> n) {
    Node<K, T> r = n.right.copy();
    n.right = r.left;
    r.left = n;
    update(n);
    update(r);
    return r;
  }

  private void check(Node<K, T> n, int[] count) {
    if (n == null) {
      return;
    }
    count[0]++;
    check(n.left, count);
    check(n.right, count);
    if (n.left != null && compare(n.left.item, n.item) >= 0
        || n.right != null && compare(n.right.item, n.item) <= 0) {
      throw new IllegalStateException("search order broken at " + n.item);
    }
    if (Math.abs(height(n.left) - height(n.right)) > 1
        || n.height != 1 + Math.max(height(n.left), height(n.right))) {
      throw new IllegalStateException("AVL balance broken at " + n.item);
    }
    K m = subtreeMaxHi(n);
    if (cmp.compare(n.maxHi, m) != 0) {
      throw new IllegalStateException("max endpoint " + n.maxHi + " should be " + m + " at " + n.item);
    }
  }
}
