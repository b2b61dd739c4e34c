package io.iam.core.engine.node;

import io.iam.core.iter.MergingIterator;
import io.iam.core.iter.BoundedIterator;
import com.google.common.util.concurrent.RateLimiter;
import io.iam.core.cache.BlockCache;
import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.KeyComparator;
import io.iam.core.memtable.MemTable;
import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.seam.TableCache;
import io.iam.core.engine.seam.TableWriter;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.NodeMeta;
import io.iam.core.tree.RankSpace;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionEdit;
import io.iam.core.manifest.VersionSet;
import io.iam.core.tree.iam.CombinePlanner;
import io.iam.core.tree.iam.FlushPlan;
import io.iam.core.tree.iam.FlushOrder;
import io.iam.core.tree.iam.TreeScheduler;
import io.iam.core.tree.iam.FlushPlanner;
import io.iam.core.tree.iam.MkChooser;
import io.iam.core.tree.iam.Mode;
import io.iam.core.tree.iam.Node;
import io.iam.core.tree.iam.TreeShape;
import io.iam.core.util.DaemonThreads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The executor of the LSA/IAM node tree (ICPP 2019, §4–5) inside a store: it asks the pure
 * kernel ({@link FlushPlanner}, {@link CombinePlanner}, and {@link MkChooser} through {@link
 * MixedLevelRule}) what to do, and does it with real files: memtable flushes into level 1, node
 * flushes that append a sequence to a child's MSTable or merge into a new one, splits, moves (a
 * manifest edit only), combines and new levels.
 *
 * <p>The kernel works on {@code long} keys; a {@link RankSpace} per plan maps the store's byte[]
 * keys to ranks and back. Choosing work ({@link #pick}, {@link #pickMemtableFlush}) reads
 * metadata only and runs under the store's mutex; {@link #run} does the I/O outside it and commits
 * one manifest edit per change. Jobs reserve the nodes they may change, so jobs on disjoint nodes
 * run in parallel.
 *
 * <p>Data in a level is always newer than data below it, and a node's newer sequences are newer
 * than its older ones; reads rely on both. Tombstones are dropped only by merges into the leaf
 * level.
 */
public final class NodeTree {

  /**
   * The most bytes of records a node job holds in memory to read its node's files once
   * ({@link Source#entries}): a sixteenth of the heap, at most 256 MiB. A larger node is read again
   * by each child for its share.
   */
  static final long KEEP_ENTRIES_BYTES = Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16);

  private final VersionSet versions;
  private final TableCache tables;
  private final TableWriter writer;
  private final StoreCounters stats;
  private final KeyComparator user;
  private final InternalKeyComparator cmp;
  private final int fanout;
  private final long capacity;
  /** {@code level-one-full-wait-ms}: how long a memtable flush waits for a full level-1 node. */
  private final long levelOneFullWaitNanos;
  private final long fileCapacity;
  private final int maxDepth;
  private final AtomicBoolean combining = new AtomicBoolean();
  /** The m/k rule: the mode each plan uses, and what the block cache keeps under it. */
  private final MixedLevelRule rule;
  /**
   * Write the children's shares of a node job (a compaction) side by side: each goes to a file of
   * its own, and most of an append's time is its two syncs, which overlap this way.
   */
  private final ExecutorService childWriters;
  /**
   * Write the level-1 shares of memtable flushes: flushes write on threads of their own, so a
   * flush never queues behind a compaction's writes (RocksDB's flush and compaction pools).
   */
  private final ExecutorService flushWriters;
  /**
   * How many of {@link #childWriters} and of {@link #flushWriters} encode at once ({@code
   * node-flush-writers}); the pools have more threads ({@code node-flush-io-depth}) so that a
   * writer waiting for its syncs makes way for the next child.
   */
  private final WriterSlots childSlots;
  private final WriterSlots flushSlots;
  /**
   * The shape of the last version {@link #shape} was asked for. Choosing work asks again and again
   * about the same version (after every job, and while a memtable flush waits), and a shape costs a
   * sort of every node boundary.
   */
  private volatile Shaped shaped;

  private record Shaped(Version version, RankSpace space, TreeShape shape) {}

  /** A node tree of at most {@code levels} levels (level 0, the memtables, included). */
  NodeTree(VersionSet versions, TableCache tables, TableWriter writer, StoreCounters stats, BlockCache cache,
      InternalKeyComparator cmp, int levels, NodeSettings settings) {
    this.versions = versions;
    this.tables = tables;
    this.writer = writer;
    this.stats = stats;
    this.cmp = cmp;
    this.user = cmp.userComparator();
    this.fanout = settings.fanout();
    this.capacity = settings.capacity();
    this.levelOneFullWaitNanos = settings.levelOneFullWaitNanos();
    this.fileCapacity = roundUp(capacity * 5 / 2 + (1 << 20));
    this.maxDepth = levels - 1;
    this.rule = new MixedLevelRule(versions, tables, cache, settings);
    int writers = settings.flushWriters();
    int threads = Math.max(writers, settings.flushIoDepth());
    this.childWriters = writerPool("iam-child-writer-", threads);
    this.flushWriters = writerPool("iam-flush-writer-", threads);
    this.childSlots = new WriterSlots(writers);
    this.flushSlots = new WriterSlots(writers);
  }

  private static ExecutorService writerPool(String name, int threads) {
    return Executors.newFixedThreadPool(threads, DaemonThreads.named(name));
  }

  /** C_t, the bytes at which a node is full. */
  long capacity() {
    return capacity;
  }

  /** How long a memtable flush waits for a level-1 node at the hard limit before writing into it. */
  long levelOneFullWaitNanos() {
    return levelOneFullWaitNanos;
  }

  /** The mode of the latest plan: for IAM, the mixed level m and cap k chosen then. */
  public Mode currentMode() {
    return rule.currentMode();
  }

  /** What the m/k rule counts the protected sequences to weigh now ({@link MixedLevelRule#appendedWeight}). */
  public long protectedLedgerBytes() {
    return rule.appendedWeight();
  }

  /** Tells the block cache what the m/k rule keeps in memory now ({@link MixedLevelRule#refreshProtection}). */
  void refreshProtection() {
    rule.refreshProtection();
  }

  // ---------------------------------------------------------------- choosing work (metadata only)

  /**
   * The next background job, or null, in the kernel's {@link TreeScheduler} order, which the
   * simulator settles in too. First a new level once the leaf level is full: nothing else starts,
   * and memtable flushes wait too ({@link #pickMemtableFlush}), so it is added as soon as {@code
   * idle} (nothing running); waiting instead for a gap in the work let the full leaf level take
   * merges for the rest of a busy load. Then the first full internal node in {@link FlushOrder}
   * (deepest level first, the fullest first, full internal children before their parent) whose
   * nodes are free. Else a combine on a level with too many nodes.
   *
   * <p>Deepest first keeps the lower levels drained, so a flush is rarely blocked by a full child.
   * Measured at 4 M records (680 MiB cache), it wrote 5.06 bytes per byte against 5.64 when the
   * top levels went first, at the price of longer stalls (see docs/iam-tree.md).
   */
  NodeJob pick(Version v, Set<Long> busy, boolean idle) {
    TreeShape shape = shape(v);
    return TreeScheduler.next(shape, shape.depth() < maxDepth, Mode.lsa(), new TreeScheduler.Steps<NodeJob>() {
      @Override
      public Optional<NodeJob> addLevel() {
        // As soon as the jobs running now end, before any other job: leaves flushed into meanwhile
        // would be merged.
        return idle ? Optional.of(new NodeJob(NodeJob.Kind.ADD_LEVEL, shape.depth() + 1, null, null, Set.of()))
            : Optional.empty();
      }

      @Override
      public Optional<NodeJob> flush(Node n, FlushPlan plan) {
        return start(NodeJob.Kind.FLUSH_NODE, n, plan);
      }

      @Override
      public Optional<NodeJob> combine(Node victim, FlushPlan plan) {
        return combining.get() ? Optional.empty() : start(NodeJob.Kind.COMBINE, victim, plan);
      }

      private Optional<NodeJob> start(NodeJob.Kind kind, Node n, FlushPlan plan) {
        Set<Long> reserved = reservation(shape, n, plan);
        return reserved != null && disjoint(reserved, busy)
            ? Optional.of(new NodeJob(kind, n.level(), find(v, n.level(), n.id()), null, reserved))
            : Optional.empty();
      }
    }).orElse(null);
  }

  /** {@code v}'s node tree in the rank space of its node boundaries alone. */
  private TreeShape shape(Version v) {
    return shaped(v).shape();
  }

  private Shaped shaped(Version v) {
    Shaped memo = shaped;
    if (memo != null && memo.version() == v) {
      return memo;
    }
    RankSpace space = RankSpace.of(v, List.of());
    Shaped fresh = new Shaped(v, space, space.shape(v, fanout, capacity));
    shaped = fresh;
    return fresh;
  }

  /** Whether the leaf level is full (N_n ≥ t^n) and the tree may still grow a level. */
  private boolean levelDue(TreeShape shape) {
    return CombinePlanner.needsNewLevel(shape) && shape.depth() < maxDepth;
  }

  /**
   * A job flushing a memtable whose distinct user keys are {@code source}, having waited {@code
   * waitedNanos}, or null while a level-1 node it would write into is busy, or internal and at the
   * kernel's hard limit for less than {@code level-one-full-wait-ms} ({@link
   * FlushPlanner#levelOneTakesMemtable}: it must flush first), or while a new level is due (a short
   * wait: it is a manifest edit). A level-1 node past C_t flushes more bytes at once; what is
   * written where is unchanged.
   */
  NodeJob pickMemtableFlush(Version v, MemTable memtable, Source source, Set<Long> busy, long waitedNanos) {
    if (levelDue(shape(v))) {
      return null; // wait: the level is added once the running jobs end (see pick)
    }
    Set<Long> reserved = new HashSet<>();
    boolean internal = v.depth() > 1;
    for (NodeMeta n : v.nodes(1)) {
      if (user.compare(n.hi(), source.first()) >= 0 && user.compare(n.lo(), source.last()) <= 0) {
        if (busy.contains(n.id())
            || (internal && !FlushPlanner.levelOneTakesMemtable(n.bytes(), source.bytesIn(n.lo(), n.hi(), user),
                capacity, fileCapacity, waitedNanos, levelOneFullWaitNanos))) {
          return null;
        }
        reserved.add(n.id());
      }
    }
    return new NodeJob(NodeJob.Kind.FLUSH_MEMTABLE, 0, null, memtable, reserved);
  }

  /**
   * The level-1 nodes a memtable flush of {@code source} that could not start waits for and that
   * no other job need take first: those its records fall in, less the internal ones at the hard
   * limit, which must flush before it. Jobs are not started on them until the flush has started
   * ({@link NodeStoreTree}), so that the flush waits for at most the jobs running now.
   */
  Set<Long> memtableFlushWants(Version v, Source source) {
    Set<Long> wants = new HashSet<>();
    boolean internal = v.depth() > 1;
    for (NodeMeta n : v.nodes(1)) {
      if (user.compare(n.hi(), source.first()) >= 0 && user.compare(n.lo(), source.last()) <= 0
          && !(internal && FlushPlanner.atLevelOneHardLimit(n.bytes(), capacity))) {
        wants.add(n.id());
      }
    }
    return wants;
  }

  /**
   * The nodes a plan may change, or null if its preconditions do not hold: the node itself and,
   * for a flush, its children (none internal and full). The neighbours a flushed node gives range
   * to afterwards are taken only then, if free ({@link #shrink}).
   */
  private static Set<Long> reservation(TreeShape shape, Node n, FlushPlan plan) {
    Set<Long> ids = new HashSet<>();
    ids.add(n.id());
    if (plan.kind() == FlushPlan.Kind.FLUSH) {
      boolean internalChildren = !shape.isLeaf(n.level() + 1);
      for (Node c : shape.children(n)) {
        if (internalChildren && c.bytes() >= shape.capacity()) {
          return null;
        }
        ids.add(c.id());
      }
    }
    return ids;
  }

  private static boolean disjoint(Set<Long> a, Set<Long> b) {
    for (Long x : a) {
      if (b.contains(x)) {
        return false;
      }
    }
    return true;
  }

  private static NodeMeta find(Version v, int level, long id) {
    for (NodeMeta n : v.nodes(level)) {
      if (n.id() == id) {
        return n;
      }
    }
    throw new IllegalStateException("no node " + id + " on level " + level);
  }

  /** Tells the tree a picked job was started (one combine runs at a time). */
  void started(NodeJob job) {
    if (job.kind() == NodeJob.Kind.COMBINE) {
      combining.set(true);
    }
  }

  // ---------------------------------------------------------------- the records being flushed

  /**
   * The records of a memtable or node being flushed, summarized: their distinct user keys in order
   * and the cumulative bytes (keys + values) up to each, so a plan can put every key in the rank
   * space and size each child's share before writing it. For a node, also the records themselves
   * ({@code entries}) when they fit in {@link #KEEP_ENTRIES_BYTES}, so the job reads its files once;
   * null otherwise, and for a memtable, which is in memory already.
   */
  record Source(List<byte[]> keys, long[] cumulativeBytes, EntryRun entries) {

    static final Source EMPTY = new Source(List.of(), new long[0], null);

    /** Reads {@code in} from its first entry. */
    static Source of(InternalIterator in, KeyComparator user) throws IOException {
      return read(in, user, null, 0);
    }

    /**
     * Reads {@code in} from its first entry and keeps its entries too, in a run ordered by {@code
     * cmp}, if their keys and values come to at most {@code keepBytes}.
     */
    static Source read(InternalIterator in, KeyComparator user, InternalKeyComparator cmp, long keepBytes)
        throws IOException {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> entryKeys = cmp == null ? null : new ArrayList<>();
      List<byte[]> entryValues = cmp == null ? null : new ArrayList<>();
      long[] cum = new long[64];
      long bytes = 0;
      byte[] last = null;
      for (in.seekToFirst(); in.valid(); in.next()) {
        byte[] k = in.key();
        int valueLength = in.valueSlice().length();
        int len = InternalKey.userKeyLength(k.length);
        if (last == null || user.compare(k, 0, len, last, 0, last.length) != 0) {
          last = Arrays.copyOf(k, len);
          keys.add(last);
          if (keys.size() > cum.length) {
            cum = Arrays.copyOf(cum, cum.length * 2);
          }
        }
        bytes += k.length + valueLength;
        cum[keys.size() - 1] = bytes;
        if (entryKeys != null) {
          if (bytes > keepBytes) {
            entryKeys = null; // too large to hold: the children read the files themselves
            entryValues = null;
          } else {
            entryKeys.add(k); // a table iterator's keys are its own copies
            entryValues.add(in.value());
          }
        }
      }
      return new Source(keys, Arrays.copyOf(cum, keys.size()),
          entryKeys == null ? null : new EntryRun(cmp, entryKeys, entryValues));
    }

    boolean isEmpty() {
      return keys.isEmpty();
    }

    /** The bytes of the records whose keys lie in [{@code lo}, {@code hi}]. */
    long bytesIn(byte[] lo, byte[] hi, KeyComparator user) {
      int from = indexOf(lo, user);
      int to = indexOf(hi, user);
      if (to < keys.size() && user.compare(keys.get(to), hi) == 0) {
        to++; // hi itself is in
      }
      return to <= from ? 0 : bytes(from, to);
    }

    byte[] first() {
      return keys.get(0);
    }

    byte[] last() {
      return keys.get(keys.size() - 1);
    }

    long bytes() {
      return keys.isEmpty() ? 0 : cumulativeBytes[keys.size() - 1];
    }

    /** The index of the first key ≥ {@code key} (null: the end). */
    int indexOf(byte[] key, KeyComparator user) {
      if (key == null) {
        return keys.size();
      }
      int lo = 0;
      int hi = keys.size();
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (user.compare(keys.get(mid), key) < 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    /** Bytes of the keys with index in {@code [from, to)}. */
    long bytes(int from, int to) {
      if (from >= to) {
        return 0;
      }
      return cumulativeBytes[to - 1] - (from == 0 ? 0 : cumulativeBytes[from - 1]);
    }
  }

  // ---------------------------------------------------------------- running a job

  /** Where a job's new files get their numbers and how fast it may write. */
  /**
   * @param filled files whose new blocks went into the block cache; if the job fails they must be
   *     evicted from it
   */
  record Io(long smallestSnapshot, LongSupplier newFileNumber, List<Long> outputs, RateLimiter limiter,
      List<Long> filled) {}

  /** Adds a level: the leaf level becomes internal (a manifest edit). */
  void addLevel() throws IOException {
    int depth = versions.current().depth();
    versions.logAndApply(new VersionEdit().depth(depth + 1));
    stats.levelsAdded.increment();
    refreshProtection();
  }

  /**
   * Runs a flush, split, move or combine and commits it. For a memtable flush, {@code source} is
   * the memtable's summary and {@code logNumber} the oldest log still needed afterwards.
   */
  boolean run(NodeJob job, Source source, Long logNumber, Io io) throws IOException {
    Long parentFile = job.node() == null || job.node().file() == null ? null : job.node().file().fileNumber();
    if (parentFile != null) {
      rule.beginReplacing(parentFile); // its blocks make way for the copies the job is about to cache
    }
    try {
      Version v = versions.pinCurrent();
      try {
        return runPinned(job, source, logNumber, io, v);
      } finally {
        v.unref();
      }
    } finally {
      if (job.kind() == NodeJob.Kind.COMBINE) {
        combining.set(false);
      }
      rule.endReplacing(parentFile);
    }
  }

  private boolean runPinned(NodeJob job, Source memSource, Long logNumber, Io io, Version v) throws IOException {
    int level = job.level();
    NodeMeta node = job.node() == null ? null : find(v, level, job.node().id());
    Source src;
    if (job.memtable() != null) {
      src = memSource;
    } else if (node.file() == null) {
      src = Source.EMPTY;
    } else {
      try (InternalIterator in = tables.uncachedIterator(node.file())) {
        src = Source.read(in, user, cmp, KEEP_ENTRIES_BYTES);
      }
    }
    RankSpace space = RankSpace.of(v, src.keys());
    TreeShape shape = space.shape(v, fanout, capacity);
    Mode m = rule.modeFor(v);
    Node parent = node != null ? space.node(level, node)
        : new Node(0, 0, space.rank(src.first()), space.rank(src.last()), src.bytes(), 1);
    boolean combine = job.kind() == NodeJob.Kind.COMBINE;
    FlushPlan plan = combine ? FlushPlanner.planCombine(shape, parent, m) : FlushPlanner.plan(shape, parent, m);
    VersionEdit edit = new VersionEdit();
    if (logNumber != null) {
      edit.logNumber(logNumber);
    }
    if (job.memtable() != null) {
      edit.flushedSequence(job.memtable().largestSequence());
    }
    switch (plan.kind()) {
      case MOVE -> move(node, level, src, job, combine, m, io, edit);
      case SPLIT -> split(job, node, level, src, space.key(plan.splitKey()), space.key(plan.splitKey() - 1), m, io, edit);
      case FLUSH -> flush(plan, job, node, level, src, space, v, m, io, edit);
    }
    versions.logAndApply(edit);
    if (combine) {
      stats.nodeCombines.increment();
    }
    return plan.kind() == FlushPlan.Kind.FLUSH && node != null && !combine;
  }

  /** The records being flushed: the memtable's, else the node's as {@code src} holds them, or else its files'. */
  private InternalIterator open(NodeJob job, NodeMeta node, Source src) throws IOException {
    if (job.memtable() != null) {
      return job.memtable().iterator();
    }
    return src.entries() != null ? src.entries().iterator() : tables.uncachedIterator(node.file());
  }

  /**
   * A node without children moves down by a manifest edit and, unless it is being combined, stays
   * on its level emptied, with its range, under a new id ({@link FlushPlan}); a combined node
   * without records is just removed. A memtable is written as a new level-1 node.
   */
  private void move(NodeMeta node, int level, Source src, NodeJob job, boolean combine, Mode m, Io io, VersionEdit edit)
      throws IOException {
    if (node != null && combine && node.file() == null) {
      edit.removeNode(level, node.id());
      return;
    }
    if (node != null && !combine) {
      edit.putNode(level, new NodeMeta(versions.newFileNumber(), node.lo(), node.hi(), null));
    }
    stats.nodeMoves.increment();
    Version now = versions.pinCurrent();
    boolean rewrite;
    try {
      Mode md = rule.modeFor(now);
      boolean tooMany = node != null && node.sequences() > md.maxSequences(level + 1);
      rewrite = tooMany && !rule.keepsSequencesOnMove(node, now, md);
      if (tooMany) {
        (rewrite ? stats.nodeMovesRewritten : stats.nodeMovesKept).increment();
      }
    } finally {
      now.unref();
    }
    if (rewrite) {
      // Moving into the mixed or a merging level with more sequences than that level lets a node
      // hold, and no room to keep them cached: rewrite the node's own sequences as one on the way down.
      List<FileMeta> files;
      try (InternalIterator in = open(job, node, src)) {
        in.seekToFirst();
        files = writer.writeNodes(in, io.smallestSnapshot(), false, io.newFileNumber(), Long.MAX_VALUE,
            capacityFor(node.bytes()), io.outputs(), io.limiter(), rule.fillsWholeNode(level + 1, m), null);
      }
      edit.removeNode(level, node.id());
      edit.putNode(level + 1, files.isEmpty() ? node.emptied() : NodeMeta.of(node.id(), node.lo(), node.hi(), files.get(0)));
      stats.nodeMerges.increment();
      stats.compacted(level + 1, node.bytes(), files.isEmpty() ? 0 : files.get(0).fileSize());
      return;
    }
    if (node != null) {
      edit.removeNode(level, node.id());
      edit.putNode(level + 1, node);
      stats.moved(level + 1, node.bytes());
      return;
    }
    List<FileMeta> files;
    try (InternalIterator in = open(job, null, src)) {
      in.seekToFirst();
      files = writer.writeNodes(in, io.smallestSnapshot(), false, io.newFileNumber(), Long.MAX_VALUE,
          capacityFor(src.bytes()), io.outputs(), io.limiter(), rule.fillsWholeNode(1, m), null);
    }
    if (!files.isEmpty()) {
      edit.putNode(1, new NodeMeta(versions.newFileNumber(), src.first(), src.last(), files.get(0)));
      stats.compacted(1, 0, files.get(0).fileSize());
    }
  }

  /** Rewrites a node as two: keys below {@code splitKey} with range [lo, leftHi], the rest with [splitKey, hi]. */
  private void split(NodeJob job, NodeMeta node, int level, Source src, byte[] splitKey, byte[] leftHi, Mode m, Io io,
      VersionEdit edit) throws IOException {
    stats.nodeSplits.increment();
    edit.removeNode(level, node.id());
    long written = 0;
    try (InternalIterator in = node.file() == null ? null : open(job, node, src)) {
      byte[][] bounds = {null, splitKey, null};
      byte[][] los = {node.lo(), splitKey};
      byte[][] his = {leftHi, node.hi()};
      for (int half = 0; half < 2; half++) {
        FileMeta f = null;
        if (in != null) {
          BoundedIterator part = new BoundedIterator(in, bounds[half], bounds[half + 1], user);
          part.seekToFirst();
          List<FileMeta> files = writer.writeNodes(part, io.smallestSnapshot(), false, io.newFileNumber(),
              Long.MAX_VALUE, capacityFor(node.bytes()), io.outputs(), io.limiter(), rule.fillsWholeNode(level, m), null);
          f = files.isEmpty() ? null : files.get(0);
          written += f == null ? 0 : f.fileSize();
        }
        edit.putNode(level, new NodeMeta(versions.newFileNumber(), los[half], his[half], f));
      }
    }
    stats.compacted(level, node.bytes(), written);
  }

  /** Partitions the records among the children: each child appends its share, or merges with it. */
  private void flush(FlushPlan plan, NodeJob job, NodeMeta node, int level, Source src, RankSpace space, Version v,
      Mode m, Io io, VersionEdit edit) throws IOException {
    int childLevel = level + 1;
    boolean leaf = childLevel == v.depth();
    List<FlushPlan.Assignment> assignments = plan.assignments();
    Node parent = plan.node();
    List<ChildWrite> writes = new ArrayList<>();
    for (int j = 0; j < assignments.size(); j++) {
      FlushPlan.Assignment a = assignments.get(j);
      NodeMeta child = find(v, childLevel, a.child().id());
      requireReserved(job, child.id());
      byte[] lower = j == 0 ? null : space.key(a.lo());
      byte[] upper = j + 1 < assignments.size() ? space.key(assignments.get(j + 1).lo()) : null;
      int from = lower == null ? 0 : src.indexOf(lower, user);
      int to = src.indexOf(upper, user);
      byte[] lo;
      byte[] hi;
      if (leaf) {
        if (from == to) {
          continue;
        }
        lo = min(child.lo(), src.keys().get(from));
        hi = max(child.hi(), src.keys().get(to - 1));
      } else {
        lo = a.lo() == parent.lo() ? min(child.lo(), space.key(a.lo())) : space.key(a.lo());
        hi = a.hi() == parent.hi() ? max(child.hi(), space.key(a.hi())) : space.key(a.hi());
        if (from < to) {
          lo = min(lo, src.keys().get(from));
          hi = max(hi, src.keys().get(to - 1));
        }
      }
      if (from == to) {
        edit.putNode(childLevel, new NodeMeta(child.id(), lo, hi, child.file()));
        continue;
      }
      writes.add(new ChildWrite(child, lo, hi, lower, upper, src.bytes(from, to), a.action(), m));
    }
    // Each child's share goes to its own file: the writes run side by side, so their syncs overlap.
    List<ChildResult> results = writeChildren(writes, job, node, src, leaf, io);
    long read = 0;
    long written = 0;
    for (int i = 0; i < writes.size(); i++) {
      ChildWrite w = writes.get(i);
      ChildResult r = results.get(i);
      read += r.read();
      written += r.written();
      if (r.action() == FlushPlan.Action.APPEND) {
        FileMeta f = r.files().isEmpty() ? w.child().file() : r.files().get(0);
        edit.putNode(childLevel, new NodeMeta(w.child().id(), w.lo(), w.hi(), f));
        stats.nodeAppends.increment();
      } else if (r.action() == FlushPlan.Action.MERGE || r.files().isEmpty()) {
        edit.putNode(childLevel, new NodeMeta(w.child().id(), w.lo(), w.hi(), r.files().isEmpty() ? null : r.files().get(0)));
        stats.nodeMerges.increment();
      } else {
        stats.nodeCuts.increment();
        edit.removeNode(childLevel, w.child().id());
        List<FileMeta> files = r.files();
        for (int p = 0; p < files.size(); p++) {
          FileMeta f = files.get(p);
          byte[] pieceLo = p == 0 ? w.lo() : InternalKey.userKey(f.smallest());
          byte[] pieceHi = p == files.size() - 1 ? w.hi() : InternalKey.userKey(f.largest());
          edit.putNode(childLevel, new NodeMeta(versions.newFileNumber(), pieceLo, pieceHi, f));
        }
      }
    }
    if (node != null) {
      if (job.kind() == NodeJob.Kind.COMBINE) {
        edit.removeNode(level, node.id());
      } else {
        edit.putNode(level, node.emptied());
      }
      read += node.bytes();
    }
    stats.compacted(childLevel, read, written);
  }

  /** What one child receives: records of user keys {@code [lower, upper)}, about {@code share} bytes. */
  private record ChildWrite(NodeMeta child, byte[] lo, byte[] hi, byte[] lower, byte[] upper, long share,
      FlushPlan.Action action, Mode mode) {}

  /**
   * What was written for one child: the action taken (an append that did not fit became a merge),
   * the new files (for an append, the child's file with one more sequence, or none if nothing was
   * left to append), the bytes of the child read to merge it, and the bytes written.
   */
  private record ChildResult(FlushPlan.Action action, List<FileMeta> files, long read, long written) {

    /** A result whose bytes written are those of its new files. */
    static ChildResult of(FlushPlan.Action action, List<FileMeta> files, long read) {
      return new ChildResult(action, files, read, files.stream().mapToLong(FileMeta::fileSize).sum());
    }
  }

  /**
   * Runs the children's writes, in parallel on {@link #flushWriters} for a memtable flush and on
   * {@link #childWriters} otherwise; all finish before it returns.
   */
  private List<ChildResult> writeChildren(List<ChildWrite> writes, NodeJob job, NodeMeta node, Source src, boolean leaf,
      Io io) throws IOException {
    List<Future<ChildResult>> futures = new ArrayList<>();
    ExecutorService pool = job.memtable() != null ? flushWriters : childWriters;
    WriterSlots slots = job.memtable() != null ? flushSlots : childSlots;
    for (ChildWrite w : writes) {
      futures.add(pool.submit(() -> {
        slots.enter();
        try {
          return writeChild(w, job, node, src, leaf, io, slots);
        } finally {
          slots.leave();
        }
      }));
    }
    List<ChildResult> results = new ArrayList<>();
    IOException failure = null;
    for (Future<ChildResult> f : futures) {
      try {
        results.add(f.get());
      } catch (ExecutionException e) {
        IOException io2 = e.getCause() instanceof IOException x ? x : new IOException("child write failed", e.getCause());
        if (failure == null) {
          failure = io2;
        } else {
          failure.addSuppressed(io2);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = new java.io.InterruptedIOException("interrupted while writing children");
      }
    }
    if (failure != null) {
      throw failure;
    }
    return results;
  }

  private ChildResult writeChild(ChildWrite w, NodeJob job, NodeMeta node, Source src, boolean leaf, Io io,
      WriterSlots slots) throws IOException {
    NodeMeta child = w.child();
    try (InternalIterator in = open(job, node, src)) {
      BoundedIterator part = new BoundedIterator(in, w.lower(), w.upper(), user);
      FlushPlan.Action action = w.action();
      if (action == FlushPlan.Action.APPEND) {
        part.seekToFirst();
        if (child.file() == null) {
          List<FileMeta> files = writer.writeNodes(part, io.smallestSnapshot(), false, io.newFileNumber(),
              Long.MAX_VALUE, capacityFor(w.share()), io.outputs(), io.limiter(),
              rule.fillsWholeNode(job.level() + 1, w.mode()), slots);
          return ChildResult.of(action, files, 0);
        }
        boolean fill = rule.fillsCache(job.level() + 1, w.mode());
        if (fill) {
          io.filled().add(child.file().fileNumber());
        }
        FileMeta f = writer.append(child.file(), part, io.smallestSnapshot(), w.share(), io.limiter(), fill, slots);
        if (f != null) {
          return f == child.file() ? ChildResult.of(action, List.of(), 0)
              : new ChildResult(action, List.of(f), 0, f.fileSize() - child.file().fileSize());
        }
        action = FlushPlan.Action.MERGE; // the child's file is too full to take the sequence
      }
      boolean cut = action == FlushPlan.Action.MERGE_AND_CUT;
      List<InternalIterator> inputs = new ArrayList<>();
      if (child.file() != null) {
        inputs.add(tables.uncachedIterator(child.file()));
      }
      inputs.add(part);
      try (MergingIterator merged = new MergingIterator(cmp, inputs)) {
        merged.seekToFirst();
        List<FileMeta> files = writer.writeNodes(merged, io.smallestSnapshot(), leaf, io.newFileNumber(),
            cut ? capacity / FlushPlanner.CUT_DIVISOR : Long.MAX_VALUE, capacityFor(cut ? capacity : w.share() + child.bytes()),
            io.outputs(), io.limiter(), rule.fillsWholeNode(job.level() + 1, w.mode()), slots);
        return ChildResult.of(action, files, child.bytes());
      }
    }
  }

  /** Stops the threads that write children's shares. */
  void close() {
    childWriters.shutdownNow();
    flushWriters.shutdownNow();
  }

  /**
   * After a node's flush ({@link #run} returned true), moves its boundaries with its neighbours
   * toward even child counts ({@link FlushPlanner#planShrink}): the emptied node shrinks, its
   * neighbours grow. Metadata only; skipped if a node it would change is busy with another job.
   * Called under the store's mutex, before the job's reservation is released.
   */
  void shrink(NodeJob job, Set<Long> busy) throws IOException {
    int level = job.level();
    long id = job.node().id();
    Version v = versions.pinCurrent();
    try {
      if (level >= v.depth() || v.nodes(level).stream().noneMatch(n -> n.id() == id)) {
        return;
      }
      NodeMeta emptied = find(v, level, id);
      Shaped shaped = shaped(v);
      RankSpace space = shaped.space();
      TreeShape shape = shaped.shape();
      List<Node> changed = FlushPlanner.planShrink(shape, space.node(level, emptied));
      if (changed.isEmpty()) {
        return;
      }
      VersionEdit edit = new VersionEdit();
      for (Node c : changed) {
        if (!job.reserved().contains(c.id()) && busy.contains(c.id())) {
          return;
        }
      }
      for (Node c : changed) {
        NodeMeta old = find(v, level, c.id());
        edit.putNode(level, new NodeMeta(c.id(), space.key(c.lo()), space.key(c.hi()), old.file()));
      }
      versions.logAndApply(edit);
    } finally {
      v.unref();
    }
  }

  private static void requireReserved(NodeJob job, long id) {
    if (!job.reserved().contains(id)) {
      throw new IllegalStateException("a " + job.kind() + " job changed node " + id + ", which it did not reserve");
    }
  }

  /** The length of a new node file for about {@code bytes} of data: room for appends until it is full. */
  private long capacityFor(long bytes) {
    return Math.max(fileCapacity, roundUp(bytes + bytes / 4 + capacity + (1 << 20)));
  }

  private static long roundUp(long bytes) {
    return (bytes + 4095) / 4096 * 4096;
  }

  private byte[] min(byte[] a, byte[] b) {
    return user.compare(a, b) <= 0 ? a : b;
  }

  private byte[] max(byte[] a, byte[] b) {
    return user.compare(a, b) >= 0 ? a : b;
  }
}
