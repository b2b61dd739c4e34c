package io.iam.core.engine;

import com.google.common.util.concurrent.RateLimiter;
import io.iam.core.cache.BlockCache;
import io.iam.core.cache.PriorityBlockCache;
import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.KeyComparator;
import io.iam.core.memtable.MemTable;
import io.iam.core.option.OptionValues;
import io.iam.core.tree.FileMeta;
import io.iam.core.tree.NodeMeta;
import io.iam.core.tree.RankSpace;
import io.iam.core.tree.Version;
import io.iam.core.tree.VersionEdit;
import io.iam.core.tree.VersionSet;
import io.iam.core.tree.iam.CombinePlanner;
import io.iam.core.tree.iam.FlushPlan;
import io.iam.core.tree.iam.FlushPlanner;
import io.iam.core.tree.iam.MkChooser;
import io.iam.core.tree.iam.Mode;
import io.iam.core.tree.iam.Node;
import io.iam.core.tree.iam.TreeShape;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The executor of the LSA/IAM node tree (ICPP 2019, §4–5) inside a store: it asks the pure
 * kernel ({@link FlushPlanner}, {@link CombinePlanner}, {@link MkChooser}) what to do, and does it
 * with real files: memtable flushes into level 1, node flushes that append a sequence to a child's
 * MSTable or merge into a new one, splits, moves (a manifest edit only), combines and new levels.
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
final class NodeTree {

  /** Level-1 nodes take memtable flushes until they hold this many times C_t. */
  static final int HARD_LIMIT = 2;

  /** A merge-and-cut cuts a full leaf into new leaves of about C_t / 5 (§4.2.1). */
  private static final int CUT_DIVISOR = 5;
  /**
   * The most bytes of records a node job holds in memory to read its node's files once
   * ({@link Source#entries}): a sixteenth of the heap, at most 256 MiB. A larger node is read again
   * by each child for its share.
   */
  static final long KEEP_ENTRIES_BYTES = Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16);

  private final VersionSet versions;
  private final TableCache tables;
  private final Statistics stats;
  private final BlockCache cache;
  private final KeyComparator user;
  private final InternalKeyComparator cmp;
  private final TreeKind kind;
  private final int fanout;
  private final long capacity;
  private final long fileCapacity;
  private final int fixedM;
  private final int fixedK;
  private final boolean halfBudget;
  private final boolean fillCache;
  /**
   * Whether the m/k rule keeps the oldest sequence of each node above the mixed level in memory
   * too ({@code protected-sequences=paper}); otherwise only appended sequences are kept.
   */
  private final boolean protectOldest;
  private final int maxDepth;
  private final AtomicBoolean combining = new AtomicBoolean();
  /**
   * The files of the nodes that running jobs flush, split, move or combine. {@link
   * #refreshProtection} leaves them unprotected while the job runs: the job caches the sequences it
   * writes as it goes, and the node's own blocks, which the job makes obsolete, would otherwise
   * hold their room in the protected pool until the job's edit is installed. They stay resident in
   * the normal pool meanwhile, and regain protection if the job fails.
   */
  private final Set<Long> replacing = ConcurrentHashMap.newKeySet();
  /** Serializes {@link #refreshProtection}, so the newest version's protection is applied last. */
  private final Object protectionLock = new Object();
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
  private volatile Mode mode;
  /** The m and k chosen for the latest version asked about: they are chosen once per version. */
  private volatile Chosen chosen;

  private record Chosen(Version version, Mode mode) {}

  /**
   * The shape of the last version {@link #shape} was asked for. Choosing work asks again and again
   * about the same version (after every job, and while a memtable flush waits), and a shape costs a
   * sort of every node boundary.
   */
  private volatile Shaped shaped;

  /** {@link #appendedStartOrThrow}'s answers by file number. */
  private final Map<Long, Long> appendedStarts = new ConcurrentHashMap<>();

  /** More remembered starts than this (far more than a tree's multi-sequence nodes) start over. */
  private static final int MAX_REMEMBERED_STARTS = 1 << 16;

  private record Shaped(Version version, RankSpace space, TreeShape shape) {}

  NodeTree(VersionSet versions, TableCache tables, Statistics stats, BlockCache cache, InternalKeyComparator cmp,
      OptionValues options) {
    this.versions = versions;
    this.tables = tables;
    this.stats = stats;
    this.cache = cache;
    this.cmp = cmp;
    this.user = cmp.userComparator();
    this.kind = options.get(StoreOptions.TREE);
    this.fanout = options.get(StoreOptions.FANOUT);
    this.capacity = options.get(StoreOptions.MEMTABLE_SIZE);
    this.fileCapacity = roundUp(capacity * 5 / 2 + (1 << 20));
    this.fixedM = options.get(StoreOptions.MIXED_LEVEL);
    this.fixedK = options.get(StoreOptions.MIXED_LEVEL_SEQUENCES);
    this.halfBudget = options.get(StoreOptions.APPEND_CACHE_BUDGET) == CacheBudget.HALF;
    this.fillCache = kind == TreeKind.IAM && options.get(StoreOptions.APPEND_CACHING) == AppendCaching.ON_WRITE;
    this.protectOldest = options.get(StoreOptions.PROTECTED_SEQUENCES) == ProtectedSequences.PAPER;
    this.maxDepth = options.get(StoreOptions.MAX_LEVELS) - 1;
    this.mode = initialMode();
    int writers = options.get(StoreOptions.NODE_FLUSH_WRITERS);
    int threads = Math.max(writers, options.get(StoreOptions.NODE_FLUSH_IO_DEPTH));
    this.childWriters = writerPool("iam-child-writer-", threads);
    this.flushWriters = writerPool("iam-flush-writer-", threads);
    this.childSlots = new WriterSlots(writers);
    this.flushSlots = new WriterSlots(writers);
  }

  private static ExecutorService writerPool(String name, int threads) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, name + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }


  private Mode initialMode() {
    return switch (kind) {
      case LSA -> Mode.lsa();
      case LSM_MERGE -> Mode.lsmMerge();
      default -> Mode.iam(fixedM > 0 ? fixedM : 1, fixedK > 0 ? fixedK : 1);
    };
  }

  /** C_t, the bytes at which a node is full. */
  long capacity() {
    return capacity;
  }

  /** The mode of the latest plan: for IAM, the mixed level m and cap k chosen then. */
  Mode currentMode() {
    return mode;
  }

  /**
   * The flush behaviour for the tree as it is now. IAM chooses m and k from the level sizes D_j
   * and the block cache's capacity M by the paper's inequality (2) (M/2 with {@code
   * append-cache-budget=half}), unless fixed by options; it is re-evaluated at every plan, so it
   * follows the data as it grows. With {@code protected-sequences=appended} the levels that append
   * now count what they keep in memory, their appended sequences, rather than all they hold.
   */
  Mode modeFor(Version v) {
    Mode m = switch (kind) {
      case LSA -> Mode.lsa();
      case LSM_MERGE -> Mode.lsmMerge();
      default -> {
        if (fixedM > 0) {
          yield Mode.iam(fixedM, fixedK > 0 ? fixedK : 1);
        }
        Chosen memo = chosen;
        if (memo != null && memo.version() == v) {
          yield memo.mode();
        }
        // Headroom: one C_t, what a memtable flush running now caches before the next choice sees it.
        // A node job adds nothing on balance: the node it replaces gives up its room (replacing).
        MkChooser.Choice c = MkChooser.chooseMeasured(levelShapes(v), cache.capacityBytes(), fanout, fanout,
            halfBudget, capacity, capacity, appendingAbove(memo));
        Mode fresh = Mode.iam(c.m(), fixedK > 0 ? fixedK : c.k());
        chosen = new Chosen(v, fresh);
        yield fresh;
      }
    };
    mode = m;
    return m;
  }

  /**
   * The level above which the tree appends now and keeps only appended sequences in memory, for
   * {@link MkChooser#chooseMeasured}: the m chosen last, or 0 for the paper's rule (or no choice yet).
   */
  private int appendingAbove(Chosen last) {
    return protectOldest || last == null ? 0 : last.mode().m();
  }

  /**
   * Whether a node moving down into a level where it holds more sequences than that level lets a
   * node hold ({@link Mode#maxSequences}) may keep them, with no rewrite. Its appended sequences
   * stay protected until its next merge, and the node it leaves behind, emptied, will take about as
   * many again; so they may stay if the m/k rule's budget holds them once more beside every
   * sequence the rule protects now ({@link MkChooser#fits}). The next choice counts them where
   * they are, and lowers k if they leave the mixed level too little room. Always false without a
   * protected pool (the rule would not control the room), with m fixed by options, or if the
   * node's reader cannot open (the node is then rewritten, as before).
   */
  private boolean keepsSequencesOnMove(NodeMeta node, Version v, Mode md) {
    if (kind != TreeKind.IAM || fixedM > 0 || !(cache instanceof PriorityBlockCache) || node.file() == null
        || node.file().sequenceCount() < 2) {
      return false;
    }
    long start = appendedStart(node.file());
    return start >= 0 && MkChooser.fits(levelShapes(v), cache.capacityBytes(), halfBudget, capacity,
        appendingAbove(chosen), md.m(), node.file().fileSize() - start);
  }

  /**
   * What each level of {@code v} holds, for {@link MkChooser#chooseMeasured}: D_j and N_j from the
   * manifest, and the bytes of every node's sequences but its oldest from the tables' indexes (an
   * MSTable lays its sequences out oldest first). A table whose reader cannot open counts as
   * holding no appended sequences, which only makes the choice less cautious until it opens.
   */
  private List<MkChooser.LevelShape> levelShapes(Version v) {
    List<MkChooser.LevelShape> levels = new ArrayList<>();
    for (int level = 1; level <= v.depth(); level++) {
      long bytes = 0;
      long nodes = 0;
      long appendedBytes = 0;
      long appendedSequences = 0;
      for (NodeMeta n : v.nodes(level)) {
        FileMeta f = n.file();
        if (f == null) {
          continue;
        }
        bytes += f.fileSize();
        nodes++;
        if (f.sequenceCount() >= 2) {
          long start = appendedStart(f);
          if (start >= 0) {
            appendedBytes += f.fileSize() - start;
            appendedSequences += f.sequenceCount() - 1;
          }
        }
      }
      levels.add(new MkChooser.LevelShape(bytes, nodes, appendedBytes, appendedSequences));
    }
    return levels;
  }

  /** Where the second-oldest sequence of {@code f} begins, or -1 if its reader cannot open. */
  private long appendedStart(FileMeta f) {
    try {
      return appendedStartOrThrow(f);
    } catch (IOException e) {
      return -1;
    }
  }

  /**
   * Where the second-oldest sequence of multi-sequence file {@code f} begins. Appends only add
   * sequences after it, so the answer for a file number never changes and is remembered: the m/k
   * choice and the protection ask it for every such node after every job.
   */
  private long appendedStartOrThrow(FileMeta f) throws IOException {
    Long known = appendedStarts.get(f.fileNumber());
    if (known != null) {
      return known;
    }
    long start = tables.reader(f).sequence(1).handle().dataStart();
    if (appendedStarts.size() >= MAX_REMEMBERED_STARTS) {
      appendedStarts.clear(); // files come and go; start over rather than track deletions
    }
    appendedStarts.put(f.fileNumber(), start);
    return start;
  }

  // ---------------------------------------------------------------- choosing work (metadata only)

  /**
   * The next background job, or null. First a new level once the leaf level is full: nothing else
   * starts, and memtable flushes wait too ({@link #pickMemtableFlush}), so it is added as soon as
   * {@code idle} (nothing running); waiting instead for a gap in the work let the full leaf level
   * take merges for the rest of a busy load. Then a full internal node, deepest level first (as
   * the kernel's {@code TreeSimulator} settles) and the fullest first; a node whose internal
   * children are full cannot flush yet (§4.2.1), so if such a child is free the fullest one goes
   * first. Else a combine on a level with too many nodes.
   *
   * <p>Deepest first keeps the lower levels drained, so a flush is rarely blocked by a full child.
   * Measured at 4 M records (680 MiB cache), it wrote 5.06 bytes per byte against 5.64 when the
   * top levels went first, at the price of longer stalls (see docs/iam-tree.md).
   */
  NodeJob pick(Version v, Set<Long> busy, boolean idle) {
    TreeShape shape = shape(v);
    if (levelDue(shape)) {
      // The leaf level is full: add a level as soon as the jobs running now end, before any other
      // job (§4.2.3 adds it when N_n reaches t^n; leaves flushed into meanwhile would be merged).
      return idle ? new NodeJob(NodeJob.Kind.ADD_LEVEL, shape.depth() + 1, null, null, Set.of()) : null;
    }
    for (int i = shape.depth() - 1; i >= 1; i--) {
      List<Node> full = new ArrayList<>();
      for (Node n : shape.level(i)) {
        if (n.bytes() >= capacity) {
          full.add(n);
        }
      }
      full.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
      for (Node n : full) {
        NodeJob job = unblocking(v, shape, n, busy);
        if (job != null) {
          return job;
        }
      }
    }
    Optional<Node> victim = CombinePlanner.pick(shape);
    if (victim.isPresent() && !combining.get()) {
      Node n = victim.get();
      Set<Long> reserved = reservation(shape, n, FlushPlanner.planCombine(shape, n, Mode.lsa()));
      if (reserved != null && disjoint(reserved, busy)) {
        return new NodeJob(NodeJob.Kind.COMBINE, n.level(), find(v, n.level(), n.id()), null, reserved);
      }
    }
    return null;
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
   * A job that flushes full node {@code n}, or, if a full internal child blocks it, the job that
   * unblocks that child (the fullest first); null if everything on the way is busy.
   */
  private NodeJob unblocking(Version v, TreeShape shape, Node n, Set<Long> busy) {
    if (busy.contains(n.id())) {
      return null;
    }
    FlushPlan plan = FlushPlanner.plan(shape, n, Mode.lsa());
    Set<Long> reserved = reservation(shape, n, plan);
    if (reserved != null) {
      return disjoint(reserved, busy) ? new NodeJob(NodeJob.Kind.FLUSH_NODE, n.level(), find(v, n.level(), n.id()), null, reserved) : null;
    }
    List<Node> blockers = new ArrayList<>();
    for (Node c : shape.children(n)) {
      if (c.bytes() >= capacity) {
        blockers.add(c);
      }
    }
    blockers.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
    for (Node c : blockers) {
      NodeJob job = unblocking(v, shape, c, busy);
      if (job != null) {
        return job;
      }
    }
    return null;
  }

  /**
   * A job flushing a memtable whose distinct user keys are {@code source}, or null while a level-1
   * node it would write into is busy, or internal and holding {@link #HARD_LIMIT} × C_t (it must
   * flush first), or while a new level is due (a short wait: it is a manifest edit).
   *
   * <p>The paper flushes only into children that are not full. Level 1 relaxes that to the hard
   * limit, the way RocksDB lets level 0 grow past its compaction trigger before writes stop: a
   * full level-1 node waiting for its own flush (which may first wait for a full child of its own)
   * takes one more memtable's share instead of stalling every writer. It then flushes more bytes at
   * once; what is written where is unchanged.
   */
  NodeJob pickMemtableFlush(Version v, MemTable memtable, Source source, Set<Long> busy) {
    if (levelDue(shape(v))) {
      return null; // wait: the level is added once the running jobs end (see pick)
    }
    Set<Long> reserved = new HashSet<>();
    boolean internal = v.depth() > 1;
    for (NodeMeta n : v.nodes(1)) {
      if (user.compare(n.hi(), source.first()) >= 0 && user.compare(n.lo(), source.last()) <= 0) {
        if (busy.contains(n.id()) || (internal && n.bytes() >= HARD_LIMIT * capacity)) {
          return null;
        }
        reserved.add(n.id());
      }
    }
    return new NodeJob(NodeJob.Kind.FLUSH_MEMTABLE, 0, null, memtable, reserved);
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
   * Tells a {@link PriorityBlockCache} which blocks the m/k rule keeps in memory (§5.1.3), for the
   * current version and the m chosen for it: every sequence of a node but its oldest, on every
   * level (the paper's k − 1 newest at level m; below m a node holds more than one if it moved
   * down with its sequences kept, see {@link #keepsSequencesOnMove}, or if m moved up after it was
   * appended to, and keeps them until its next merge); with {@code protected-sequences=paper}
   * also the oldest sequence of each node above m, the paper's whole appending levels. {@link
   * MkChooser#chooseMeasured} counts all of these against M. Blocks that no longer qualify (m changed, the sequence was merged) lose their protection. Does
   * nothing for LSA, LSM-merge, or another cache. Called after every change of the tree; reads
   * metadata only (and opens a reader for the multi-sequence files that have none; if that fails,
   * the previous protection stays until the next call).
   */
  void refreshProtection() {
    if (kind != TreeKind.IAM || !(cache instanceof PriorityBlockCache pool)) {
      return;
    }
    synchronized (protectionLock) {
      Version v = versions.pinCurrent();
      try {
        Mode md = modeFor(v);
        Map<Long, Long> from = new HashMap<>();
        for (int level = 1; level <= v.depth(); level++) {
          for (NodeMeta n : v.nodes(level)) {
            FileMeta f = n.file();
            if (f == null || replacing.contains(f.fileNumber())) {
              continue;
            }
            if (level < md.m() && protectOldest) {
              from.put(f.fileNumber(), 0L);
            } else if (f.sequenceCount() >= 2) {
              from.put(f.fileNumber(), appendedStartOrThrow(f));
            }
          }
        }
        pool.protect(from);
      } catch (IOException e) {
        // a reader could not open: the old protection stays until the next change retries
      } finally {
        v.unref();
      }
    }
  }

  /**
   * Runs a flush, split, move or combine and commits it. For a memtable flush, {@code source} is
   * the memtable's summary and {@code logNumber} the oldest log still needed afterwards.
   */
  boolean run(NodeJob job, Source source, Long logNumber, Io io) throws IOException {
    Long parentFile = job.node() == null || job.node().file() == null ? null : job.node().file().fileNumber();
    if (parentFile != null) {
      replacing.add(parentFile);
      refreshProtection(); // its blocks make way for the copies the job is about to cache
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
      if (parentFile != null) {
        replacing.remove(parentFile);
      }
      refreshProtection();
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
    Mode m = modeFor(v);
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
      Mode md = modeFor(now);
      boolean tooMany = node != null && node.sequences() > md.maxSequences(level + 1);
      rewrite = tooMany && !keepsSequencesOnMove(node, now, md);
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
        files = tables.writeNodes(in, io.smallestSnapshot(), false, io.newFileNumber(), Long.MAX_VALUE,
            capacityFor(node.bytes()), io.outputs(), io.limiter(), fillsWholeNode(level + 1, m), null);
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
      files = tables.writeNodes(in, io.smallestSnapshot(), false, io.newFileNumber(), Long.MAX_VALUE,
          capacityFor(src.bytes()), io.outputs(), io.limiter(), fillsWholeNode(1, m), null);
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
          List<FileMeta> files = tables.writeNodes(part, io.smallestSnapshot(), false, io.newFileNumber(),
              Long.MAX_VALUE, capacityFor(node.bytes()), io.outputs(), io.limiter(), fillsWholeNode(level, m), null);
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
          List<FileMeta> files = tables.writeNodes(part, io.smallestSnapshot(), false, io.newFileNumber(),
              Long.MAX_VALUE, capacityFor(w.share()), io.outputs(), io.limiter(),
              fillsWholeNode(job.level() + 1, w.mode()), slots);
          return ChildResult.of(action, files, 0);
        }
        boolean fill = fillsCache(job.level() + 1, w.mode());
        if (fill) {
          io.filled().add(child.file().fileNumber());
        }
        FileMeta f = tables.append(child.file(), part, io.smallestSnapshot(), w.share(), io.limiter(), fill, slots);
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
        List<FileMeta> files = tables.writeNodes(merged, io.smallestSnapshot(), leaf, io.newFileNumber(),
            cut ? capacity / CUT_DIVISOR : Long.MAX_VALUE, capacityFor(cut ? capacity : w.share() + child.bytes()),
            io.outputs(), io.limiter(), fillsWholeNode(job.level() + 1, w.mode()), slots);
        return ChildResult.of(action, files, child.bytes());
      }
    }
  }

  /**
   * Whether a sequence appended into {@code level} goes into the block cache as it is written: in
   * the IAM-tree with {@code append-caching=on-write}, when the m/k rule keeps it in memory (a
   * level above m, or level m with k ≥ 2; m and k are chosen so that all of them fit, §5.1.3).
   * Otherwise, and for every sequence of LSA and LSM-merge, blocks are cached when read. New node
   * files follow {@link #fillsWholeNode}. {@code md} is the mode the job planned with, not the
   * latest one: a memtable flush on its own thread can choose new m and k while a node job writes,
   * and an append planned at k ≥ 2 but written as if k were 1 left a protected sequence that only
   * a read would bring in (a scan then met two uncached sequences on the mixed level; seen once in
   * a full CI run, session 9).
   */
  private boolean fillsCache(int level, Mode md) {
    return fillCache && (level < md.m() || (level == md.m() && md.k() >= 2));
  }

  /**
   * Whether a new node file written into {@code level} (by a merge, a merge-and-cut, a split or a
   * move's rewrite) goes into the block cache as it is written: with {@code append-caching=on-write},
   * when every sequence of the node is protected, a level above m with {@code
   * protected-sequences=paper}. Its one sequence is its oldest, which is otherwise not protected.
   * Without this, a merge on an appending level (a share too large for the file, a full leaf
   * while every level appends) or a split left protected blocks that only a read would bring in,
   * and a scan could meet two uncached sequences on one level.
   */
  private boolean fillsWholeNode(int level, Mode md) {
    return fillCache && protectOldest && level < md.m();
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
