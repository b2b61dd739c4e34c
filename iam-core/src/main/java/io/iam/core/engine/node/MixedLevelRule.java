package io.iam.core.engine.node;

import io.iam.core.cache.BlockCache;
import io.iam.core.cache.PriorityBlockCache;
import io.iam.core.engine.seam.TableCache;
import io.iam.core.table.MSTableReader;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.NodeMeta;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionSet;
import io.iam.core.tree.iam.MkChooser;
import io.iam.core.tree.iam.Mode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The IAM-tree's m/k rule as a store runs it (paper §5.1.3): the {@link Mode} each node-tree plan
 * uses, chosen once per version by {@link MkChooser} from what the levels hold and the block
 * cache's size; which blocks a {@link PriorityBlockCache} keeps in memory under it; and which
 * writes fill the cache as they are written. LSA and LSM-merge get their fixed modes and protect
 * nothing. {@link NodeTree} asks it and does the I/O.
 *
 * <p>Thread-safe: node jobs and memtable flushes ask it from their own threads.
 */
final class MixedLevelRule {

  /** More remembered files than this (far more than a tree's multi-sequence nodes) start over. */
  private static final int MAX_REMEMBERED_FILES = 1 << 16;

  private final VersionSet versions;
  private final TableCache tables;
  private final BlockCache cache;
  private final Mode.Kind kind;
  private final int fanout;
  private final long capacity;
  private final int fixedM;
  private final int fixedK;
  private final boolean halfBudget;
  private final boolean fillCache;
  /**
   * Whether the m/k rule keeps the oldest sequence of each node above the mixed level in memory
   * too ({@code protected-sequences=paper}); otherwise only appended sequences are kept.
   */
  private final boolean protectOldest;
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
  /** {@link #appendedOrThrow}'s answers by file number. */
  private final Map<Long, Appended> appended = new ConcurrentHashMap<>();
  private volatile Mode mode;
  /** The m and k chosen for the latest version asked about: they are chosen once per version. */
  private volatile Chosen chosen;

  private record Chosen(Version version, Mode mode) {}

  /**
   * The appended sequences of a multi-sequence file: every sequence but its oldest, of the first
   * {@code sequences}.
   *
   * @param start where the second-oldest sequence's data begins (an MSTable lays its sequences out
   *     oldest first, so the protected blocks are those from here on)
   * @param weight what their data blocks weigh in the block cache ({@link PriorityBlockCache#weightOf})
   */
  private record Appended(int sequences, long start, long weight) {}

  MixedLevelRule(VersionSet versions, TableCache tables, BlockCache cache, NodeSettings settings) {
    this.versions = versions;
    this.tables = tables;
    this.cache = cache;
    this.kind = settings.kind();
    this.fanout = settings.fanout();
    this.capacity = settings.capacity();
    this.fixedM = settings.mixedLevel();
    this.fixedK = settings.mixedLevelSequences();
    this.halfBudget = settings.halfCacheBudget();
    this.fillCache = kind == Mode.Kind.IAM && settings.cacheOnWrite();
    this.protectOldest = settings.protectOldest();
    this.mode = initialMode();
  }

  /**
   * Before a job that replaces node file {@code fileNumber}: the file gives up its protection
   * while the job runs (see {@link #replacing}).
   */
  void beginReplacing(long fileNumber) {
    replacing.add(fileNumber);
    refreshProtection();
  }

  /**
   * After a job, whether it succeeded or not: {@code fileNumber} (the file {@link #beginReplacing}
   * named, or null if none) stops being replaced, and the protection follows the current version.
   */
  void endReplacing(Long fileNumber) {
    if (fileNumber != null) {
      replacing.remove(fileNumber);
    }
    refreshProtection();
  }

  private Mode initialMode() {
    return switch (kind) {
      case LSA -> Mode.lsa();
      case LSM_MERGE -> Mode.lsmMerge();
      default -> Mode.iam(fixedM > 0 ? fixedM : 1, fixedK > 0 ? fixedK : 1);
    };
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
  boolean keepsSequencesOnMove(NodeMeta node, Version v, Mode md) {
    if (kind != Mode.Kind.IAM || fixedM > 0 || !(cache instanceof PriorityBlockCache) || node.file() == null
        || node.file().sequenceCount() < 2) {
      return false;
    }
    Appended a = appended(node.file());
    return a != null && MkChooser.fits(levelShapes(v), cache.capacityBytes(), halfBudget, capacity,
        appendingAbove(chosen), md.m(), a.weight());
  }

  /**
   * What each level of {@code v} holds, for {@link MkChooser#chooseMeasured}: D_j and N_j from the
   * manifest, and what every node's sequences but its oldest weigh in the block cache from the
   * tables' indexes: their data blocks and the cache's overhead per block, what protecting them
   * takes (an earlier version counted their bytes in the file, metadata included, which came to
   * about 1% less). A table whose reader cannot open counts as holding no appended sequences,
   * which only makes the choice less cautious until it opens.
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
          Appended a = appended(f);
          if (a != null) {
            appendedBytes += a.weight();
            appendedSequences += f.sequenceCount() - 1;
          }
        }
      }
      levels.add(new MkChooser.LevelShape(bytes, nodes, appendedBytes, appendedSequences));
    }
    return levels;
  }

  /**
   * What the m/k rule counts the appended sequences of the current version to weigh in the block
   * cache, Σ A_j over the levels: with every such block resident and no job running, exactly the
   * protected pool's used bytes.
   */
  long appendedWeight() {
    Version v = versions.pinCurrent();
    try {
      return levelShapes(v).stream().mapToLong(MkChooser.LevelShape::appendedBytes).sum();
    } finally {
      v.unref();
    }
  }

  /** {@link #appendedOrThrow}, or null if the reader of {@code f} cannot open. */
  private Appended appended(FileMeta f) {
    try {
      return appendedOrThrow(f);
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * The appended sequences of multi-sequence file {@code f}, as its version records it. Appends
   * only add sequences after the ones a version names, so the answer for a file number and a
   * sequence count never changes and is remembered: the m/k choice and the protection ask it for
   * every such node after every job, and a file appended to is read again once.
   */
  private Appended appendedOrThrow(FileMeta f) throws IOException {
    Appended known = appended.get(f.fileNumber());
    if (known != null && known.sequences() == f.sequenceCount()) {
      return known;
    }
    MSTableReader r = tables.reader(f);
    int sequences = Math.min(f.sequenceCount(), r.sequenceCount());
    long start = r.sequence(1).handle().dataStart();
    long blocks = 0;
    for (int i = 1; i < sequences; i++) {
      blocks += r.sequence(i).blockCount();
    }
    Appended a = new Appended(sequences, start,
        PriorityBlockCache.weightOf(r.sequence(sequences - 1).handle().dataEnd() - start, blocks));
    if (appended.size() >= MAX_REMEMBERED_FILES) {
      appended.clear(); // files come and go; start over rather than track deletions
    }
    appended.put(f.fileNumber(), a);
    return a;
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
    if (kind != Mode.Kind.IAM || !(cache instanceof PriorityBlockCache pool)) {
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
              from.put(f.fileNumber(), appendedOrThrow(f).start());
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
   * Whether a sequence appended into {@code level} goes into the block cache as it is written: in
   * the IAM-tree with {@code append-caching=on-write}, when the m/k rule keeps it in memory (a
   * level above m, or level m with k ≥ 2; m and k are chosen so that all of them fit, §5.1.3).
   * Otherwise, and for every sequence of LSA and LSM-merge, blocks are cached when read. New node
   * files follow {@link #fillsWholeNode}. {@code md} is the mode the job planned with, not the
   * latest one: a memtable flush on its own thread can choose new m and k while a node job writes,
   * and an append planned at k ≥ 2 but written as if k were 1 left a protected sequence that only
   * a read would bring in (a scan then met two uncached sequences on the mixed level; seen once in
   * a full CI run).
   */
  boolean fillsCache(int level, Mode md) {
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
  boolean fillsWholeNode(int level, Mode md) {
    return fillCache && protectOldest && level < md.m();
  }
}
