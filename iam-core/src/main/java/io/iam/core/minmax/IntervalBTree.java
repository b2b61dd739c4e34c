package io.iam.core.minmax;

import java.util.ArrayList;
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
 * <p>Not thread-safe; pure.
 *
 * @param <T> the payload (for Min-Max, a {@link Bucket})
 */
public final class IntervalBTree<T> {

  /** One indexed interval and its payload; also the handle that {@link #remove} takes. */
  public static final class Item<T> {
    private final long lo;
    private final long hi;
    private final long order;
    private final T value;

    private Item(long lo, long hi, long order, T value) {
      this.lo = lo;
      this.hi = hi;
      this.order = order;
      this.value = value;
    }

    public long lo() {
      return lo;
    }

    public long hi() {
      return hi;
    }

    public T value() {
      return value;
    }

    private int compareTo(Item<?> o) {
      int c = Long.compare(lo, o.lo);
      if (c == 0) {
        c = Long.compare(hi, o.hi);
      }
      return c != 0 ? c : Long.compare(order, o.order);
    }

    @Override
    public String toString() {
      return "[" + lo + ", " + hi + "]=" + value;
    }
  }

  private static final class Node<T> {
    final Item<T> item;
    Node<T> left;
    Node<T> right;
    int height = 1;
    long maxHi;

    Node(Item<T> item) {
      this.item = item;
      this.maxHi = item.hi;
    }
  }

  private Node<T> root;
  private int size;
  private long inserted;

  /** Number of intervals. */
  public int size() {
    return size;
  }

  /** Indexes {@code value} under [lo, hi], lo ≤ hi; returns the handle to remove it with. */
  public Item<T> insert(long lo, long hi, T value) {
    if (lo > hi) {
      throw new IllegalArgumentException("empty interval [" + lo + ", " + hi + "]");
    }
    Item<T> item = new Item<>(lo, hi, inserted++, value);
    root = insert(root, item);
    size++;
    return item;
  }

  /** Removes an interval inserted earlier into this tree; returns whether it was there. */
  public boolean remove(Item<T> item) {
    int before = size;
    root = remove(root, item);
    return size < before;
  }

  /** The intervals containing {@code key}, in (lo, hi, insertion) order. */
  public List<Item<T>> stab(long key) {
    return overlapping(key, key);
  }

  /** The intervals overlapping [lo, hi] (sharing at least one key), in (lo, hi, insertion) order. */
  public List<Item<T>> overlapping(long lo, long hi) {
    List<Item<T>> out = new ArrayList<>();
    if (lo <= hi) {
      collect(root, lo, hi, out::add);
    }
    return out;
  }

  /** Every interval in (lo, hi, insertion) order. */
  public List<Item<T>> all() {
    return overlapping(Long.MIN_VALUE, Long.MAX_VALUE);
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

  private static <T> void collect(Node<T> n, long lo, long hi, Consumer<Item<T>> out) {
    if (n == null || n.maxHi < lo) {
      return; // nothing below reaches lo
    }
    collect(n.left, lo, hi, out);
    if (n.item.lo <= hi) {
      if (n.item.hi >= lo) {
        out.accept(n.item);
      }
      collect(n.right, lo, hi, out); // right subtree starts at ≥ n.item.lo; only useful if ≤ hi
    }
  }

  private static <T> Node<T> insert(Node<T> n, Item<T> item) {
    if (n == null) {
      return new Node<>(item);
    }
    if (item.compareTo(n.item) < 0) {
      n.left = insert(n.left, item);
    } else {
      n.right = insert(n.right, item);
    }
    return rebalance(n);
  }

  private Node<T> remove(Node<T> n, Item<T> item) {
    if (n == null) {
      return null;
    }
    int c = item.compareTo(n.item);
    if (c < 0) {
      n.left = remove(n.left, item);
    } else if (c > 0) {
      n.right = remove(n.right, item);
    } else if (n.item != item) {
      return n; // an equal-looking handle of another tree
    } else {
      size--;
      if (n.left == null || n.right == null) {
        return n.left != null ? n.left : n.right;
      }
      Node<T> succ = n.right;
      while (succ.left != null) {
        succ = succ.left;
      }
      Node<T> replacement = new Node<>(succ.item);
      replacement.right = removeMin(n.right);
      replacement.left = n.left;
      return rebalance(replacement);
    }
    return rebalance(n);
  }

  private static <T> Node<T> removeMin(Node<T> n) {
    if (n.left == null) {
      return n.right;
    }
    n.left = removeMin(n.left);
    return rebalance(n);
  }

  private static int height(Node<?> n) {
    return n == null ? 0 : n.height;
  }

  private static <T> void update(Node<T> n) {
    n.height = 1 + Math.max(height(n.left), height(n.right));
    n.maxHi = subtreeMaxHi(n);
  }

  /** The largest high endpoint below {@code n}, from its children's annotations. */
  private static long subtreeMaxHi(Node<?> n) {
    long m = n.item.hi;
    m = n.left == null ? m : Math.max(m, n.left.maxHi);
    return n.right == null ? m : Math.max(m, n.right.maxHi);
  }

  private static <T> Node<T> rebalance(Node<T> n) {
    update(n);
    int balance = height(n.left) - height(n.right);
    if (balance > 1) {
      if (height(n.left.left) < height(n.left.right)) {
        n.left = rotateLeft(n.left);
      }
      return rotateRight(n);
    }
    if (balance < -1) {
      if (height(n.right.right) < height(n.right.left)) {
        n.right = rotateRight(n.right);
      }
      return rotateLeft(n);
    }
    return n;
  }

  private static <T> Node<T> rotateRight(Node<T> n) {
    Node<T> l = n.left;
    n.left = l.right;
    l.right = n;
    update(n);
    update(l);
    return l;
  }

  private static <T> Node<T> rotateLeft(Node<T> n) {
    Node<T> r = n.right;
    n.right = r.left;
    r.left = n;
    update(n);
    update(r);
    return r;
  }

  private static <T> void check(Node<T> n, int[] count) {
    if (n == null) {
      return;
    }
    count[0]++;
    check(n.left, count);
    check(n.right, count);
    if (n.left != null && n.left.item.compareTo(n.item) >= 0
        || n.right != null && n.right.item.compareTo(n.item) <= 0) {
      throw new IllegalStateException("search order broken at " + n.item);
    }
    if (Math.abs(height(n.left) - height(n.right)) > 1
        || n.height != 1 + Math.max(height(n.left), height(n.right))) {
      throw new IllegalStateException("AVL balance broken at " + n.item);
    }
    long m = subtreeMaxHi(n);
    if (n.maxHi != m) {
      throw new IllegalStateException("max endpoint " + n.maxHi + " should be " + m + " at " + n.item);
    }
  }
}
