package io.iam.core.tree.iam;

import io.iam.core.tree.iam.FlushPlan.Assignment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Runs the LSA/IAM planners on an in-memory tree, deterministically for a seed. Each {@link
 * #step()} is one memtable flush: C_t bytes of uniformly random keys in {@code [0, 2^40)}
 * ({@code C_t / recordBytes} records) are flushed into L1, then the tree is settled; {@link
 * #flush} does the same with the keys a caller gives.
 *
 * <p>Settling repeats the embedded engine's {@link TreeScheduler} order until nothing applies:
 * (1) a level is added if the leaf level is full; (2) the first full internal node (≥ C_t bytes)
 * in {@link FlushOrder} (deepest level first, the fullest first) is split or flushed, so a
 * flushing node's internal children are never full; (3) a node is combined on a level with too
 * many nodes.
 *
 * <p>After a node (not a combined one) flushes, its range is shrunk toward balance with its
 * neighbours by {@link FlushPlanner#planShrink} (metadata only, nothing is written).
 *
 * <p>Costs: an append writes the appended bytes; a merge rewrites the child plus the incoming
 * bytes into one sequence; a merge-and-cut writes the same and cuts the result, in key order, into
 * leaves that close once they hold C_t/5 (between keys; the last leaf takes the rest), as the
 * engine's and HBase's writers cut; a move writes nothing (but a memtable's move into L1 writes its bytes) and leaves
 * the moved node's range on its level in an emptied node (see {@link FlushPlan}); a split
 * writes the node's bytes. Records are unique keys in practice and merges do not drop
 * duplicates, so bytes are conserved. One run at a time; not thread-safe.
 */
public final class TreeSimulator {

  /** Keys are drawn from {@code [0, KEY_SPACE)}. */
  public static final long KEY_SPACE = 1L << 40;

  private final int fanout;
  private final long capacity;
  private final long recordBytes;
  private final Mode mode;
  private final SplittableRandom random;
  private final List<List<Node>> levels = new ArrayList<>();
  private final Map<Long, long[]> records = new HashMap<>();
  private long[] written = new long[8];
  private long nextId = 1;
  private long flushes;
  private long inserted;
  private long moves;
  private long splits;
  private long combines;
  private long[] lastBatch = new long[0];

  /**
   * @param capacityBytes C_t: node capacity and memtable size, a multiple of {@code recordBytes}
   *     with at least 10 records
   */
  public TreeSimulator(int fanout, long capacityBytes, long recordBytes, Mode mode, long seed) {
    if (fanout < 2 || recordBytes < 1 || capacityBytes % recordBytes != 0 || capacityBytes / recordBytes < 10) {
      throw new IllegalArgumentException("need t >= 2 and C_t a multiple (>= 10) of the record size");
    }
    this.fanout = fanout;
    this.capacity = capacityBytes;
    this.recordBytes = recordBytes;
    this.mode = mode;
    this.random = new SplittableRandom(seed);
    levels.add(new ArrayList<>());
  }

  /** Runs {@code n} steps and reports. */
  public TreeSimResult run(long n) {
    for (long i = 0; i < n; i++) {
      step();
    }
    return result();
  }

  /** One memtable flush of C_t bytes of uniformly random keys, and the settling after it. */
  public void step() {
    int count = (int) (capacity / recordBytes);
    long[] batch = new long[count];
    for (int i = 0; i < count; i++) {
      batch[i] = random.nextLong(KEY_SPACE);
    }
    flush(batch);
  }

  /**
   * One memtable flush of the records of {@code keys} (one record each, in any order), and the
   * settling after it: the step a host runs when it flushes a memtable of its own choosing.
   *
   * @throws IllegalArgumentException if {@code keys} is empty
   */
  public void flush(long[] keys) {
    if (keys.length == 0) {
      throw new IllegalArgumentException("a flush needs at least one record");
    }
    long[] batch = keys.clone();
    Arrays.sort(batch);
    lastBatch = batch.clone();
    Node memtable = new Node(nextId++, 0, batch[0], batch[batch.length - 1], batch.length * recordBytes, 1);
    records.put(memtable.id(), batch);
    flushes++;
    inserted += memtable.bytes();
    apply(FlushPlanner.plan(shape(), memtable, mode), false);
    settle();
  }

  /** The current shape (a snapshot). */
  public TreeShape shape() {
    return new TreeShape(levels, fanout, capacity);
  }

  /** The keys the last step inserted, sorted. */
  public long[] lastBatch() {
    return lastBatch.clone();
  }

  /** The sorted keys stored in {@code node} (by id), or an empty array. */
  public long[] keysOf(Node node) {
    long[] keys = records.get(node.id());
    return keys == null ? new long[0] : keys.clone();
  }

  /** The report so far. */
  public TreeSimResult result() {
    int n = levels.size();
    int[] nodes = new int[n];
    double[] mean = new double[n];
    int[] max = new int[n];
    for (int i = 0; i < n; i++) {
      List<Node> level = levels.get(i);
      nodes[i] = level.size();
      long sum = 0;
      for (Node node : level) {
        sum += node.sequences();
        max[i] = Math.max(max[i], node.sequences());
      }
      mean[i] = level.isEmpty() ? 0 : (double) sum / level.size();
    }
    return new TreeSimResult(mode, flushes, inserted, Arrays.copyOf(written, n), nodes, mean, max, moves, splits, combines);
  }

  private void settle() {
    TreeScheduler.Steps<Boolean> steps = new TreeScheduler.Steps<>() {
      @Override
      public Optional<Boolean> addLevel() {
        levels.add(new ArrayList<>());
        return Optional.of(true);
      }

      @Override
      public Optional<Boolean> flush(Node node, FlushPlan plan) {
        apply(plan, false);
        return Optional.of(true);
      }

      @Override
      public Optional<Boolean> combine(Node victim, FlushPlan plan) {
        combines++;
        apply(plan, true);
        return Optional.of(true);
      }
    };
    for (int guard = 0; TreeScheduler.next(shape(), true, mode, steps).isPresent(); guard++) {
      if (guard > 1_000_000) {
        throw new IllegalStateException("the tree does not settle");
      }
    }
  }

  private void apply(FlushPlan plan, boolean destroy) {
    Node node = plan.node();
    long[] data = records.remove(node.id());
    switch (plan.kind()) {
      case MOVE -> {
        remove(node);
        if (destroy && node.bytes() == 0) {
          return; // a combined node without records or children: nothing moves
        }
        moves++;
        if (node.level() == 0) {
          write(1, node.bytes());
        }
        put(node.withLevel(node.level() + 1), data);
        if (node.level() >= 1 && !destroy) {
          put(new Node(nextId++, node.level(), node.lo(), node.hi(), 0, 0), new long[0]);
        }
      }
      case SPLIT -> {
        splits++;
        remove(node);
        write(node.level(), node.bytes());
        int cut = lowerBound(data, plan.splitKey());
        put(node.level(), node.lo(), plan.splitKey() - 1, Arrays.copyOfRange(data, 0, cut));
        put(node.level(), plan.splitKey(), node.hi(), Arrays.copyOfRange(data, cut, data.length));
      }
      case FLUSH -> {
        boolean internal = node.level() + 1 < levels.size();
        for (Assignment a : plan.assignments()) {
          long[] part = Arrays.copyOfRange(data, lowerBound(data, a.lo()), upperBound(data, a.hi()));
          if (internal) {
            receive(a, part, node);
          } else if (part.length > 0) {
            receive(a, part, null);
          }
        }
        if (node.level() >= 1) {
          remove(node);
          if (!destroy) {
            Node emptied = new Node(node.id(), node.level(), node.lo(), node.hi(), 0, 0);
            put(emptied, new long[0]);
            for (Node resized : FlushPlanner.planShrink(shape(), emptied)) {
              long[] keys = records.get(resized.id());
              remove(resized);
              put(resized, keys);
            }
          }
        }
      }
    }
  }

  /**
   * Writes {@code part} into the assignment's child. A leaf child ({@code parent == null}) widens
   * to cover the records; an internal child takes its sub-range as its range, keeping any part of
   * its old range outside the parent's (the planner only shrinks children that hold no records).
   */
  private void receive(Assignment a, long[] part, Node parent) {
    Node child = a.child();
    long[] old = records.get(child.id());
    long lo;
    long hi;
    if (parent == null) {
      lo = Math.min(child.lo(), part[0]);
      hi = Math.max(child.hi(), part[part.length - 1]);
    } else {
      lo = a.lo() == parent.lo() ? Math.min(child.lo(), a.lo()) : a.lo();
      hi = a.hi() == parent.hi() ? Math.max(child.hi(), a.hi()) : a.hi();
      if (part.length == 0) {
        remove(child);
        put(new Node(child.id(), child.level(), lo, hi, child.bytes(), child.sequences()), old);
        return;
      }
    }
    long[] all = merge(old, part);
    remove(child);
    records.remove(child.id());
    switch (a.action()) {
      case APPEND -> {
        write(child.level(), bytes(part));
        put(new Node(child.id(), child.level(), lo, hi, bytes(all), child.sequences() + 1), all);
      }
      case MERGE -> {
        write(child.level(), bytes(all));
        put(new Node(child.id(), child.level(), lo, hi, bytes(all), 1), all);
      }
      case MERGE_AND_CUT -> {
        write(child.level(), bytes(all));
        long cutBytes = capacity / FlushPlanner.CUT_DIVISOR;
        int from = 0;
        while (from < all.length) {
          // A leaf closes once it holds C_t/5, before the next key: the rest goes to the last one.
          int to = from + 1;
          while (to < all.length && (bytes(to - from) < cutBytes || all[to] == all[to - 1])) {
            to++;
          }
          long pieceLo = from == 0 ? lo : all[from];
          long pieceHi = to == all.length ? hi : all[to - 1];
          put(child.level(), pieceLo, pieceHi, Arrays.copyOfRange(all, from, to));
          from = to;
        }
      }
    }
  }

  private long bytes(long[] keys) {
    return bytes(keys.length);
  }

  private long bytes(int records) {
    return records * recordBytes;
  }

  private void write(int level, long bytes) {
    if (level > written.length) {
      written = Arrays.copyOf(written, level * 2);
    }
    written[level - 1] += bytes;
  }

  /** A new node holding {@code keys} (one sequence, or none if empty). */
  private void put(int level, long lo, long hi, long[] keys) {
    put(new Node(nextId++, level, lo, hi, bytes(keys), keys.length > 0 ? 1 : 0), keys);
  }

  private void put(Node node, long[] keys) {
    while (levels.size() < node.level()) {
      levels.add(new ArrayList<>());
    }
    List<Node> level = levels.get(node.level() - 1);
    int at = 0;
    int hi = level.size();
    while (at < hi) {
      int mid = (at + hi) >>> 1;
      if (level.get(mid).lo() < node.lo()) {
        at = mid + 1;
      } else {
        hi = mid;
      }
    }
    level.add(at, node);
    records.put(node.id(), keys);
  }

  private void remove(Node node) {
    if (node.level() == 0) {
      return;
    }
    List<Node> level = levels.get(node.level() - 1);
    for (int i = 0; i < level.size(); i++) {
      if (level.get(i).id() == node.id()) {
        level.remove(i);
        return;
      }
    }
    throw new IllegalStateException("no such node: " + node);
  }

  private static long[] merge(long[] a, long[] b) {
    long[] out = new long[a.length + b.length];
    int i = 0;
    int j = 0;
    int k = 0;
    while (i < a.length && j < b.length) {
      out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
    }
    while (i < a.length) {
      out[k++] = a[i++];
    }
    while (j < b.length) {
      out[k++] = b[j++];
    }
    return out;
  }

  /** First index whose key is ≥ {@code key}. */
  private static int lowerBound(long[] keys, long key) {
    int lo = 0;
    int hi = keys.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (keys[mid] < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** First index whose key is > {@code key}. */
  private static int upperBound(long[] keys, long key) {
    return key == Long.MAX_VALUE ? keys.length : lowerBound(keys, key + 1);
  }
}
