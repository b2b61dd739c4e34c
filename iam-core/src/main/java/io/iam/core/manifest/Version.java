package io.iam.core.manifest;

import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.KeyComparator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An immutable set of live table files by level. Level 0 holds flushed files whose key ranges may
 * overlap, newest first; every deeper level holds files with disjoint key ranges, sorted by key.
 * Readers pin a version with {@link #ref()} / {@link #unref()} so its files outlive compactions
 * that replace them.
 */
public final class Version {

  private final InternalKeyComparator cmp;
  private final List<List<FileMeta>> levels;
  /** Per level, the nodes of a node tree by key (empty lists for a leveled tree). */
  private final List<List<NodeMeta>> nodes;
  /** On-disk levels of a node tree, 0 for a leveled tree. */
  private final int depth;
  /** tree=lsbm: the compaction buffer lists B_i that go with these levels ({@link LevelBuffers#NONE} otherwise). */
  private final LevelBuffers buffer;
  /** tree=stack: the flushes each file of level 0 holds, by file number (empty otherwise). */
  private final Map<Long, VersionEdit.FlushRange> flushRanges;
  /** Pins by readers and jobs; {@link #RELEASED} once the purge has let it go. */
  private final AtomicInteger refs = new AtomicInteger();
  private static final int RELEASED = -1;

  Version(InternalKeyComparator cmp, List<List<FileMeta>> levels, LevelBuffers buffer) {
    this(cmp, levels, emptyNodes(levels.size()), 0, buffer, Map.of());
  }

  private Version(InternalKeyComparator cmp, List<List<FileMeta>> levels, List<List<NodeMeta>> nodes, int depth,
      LevelBuffers buffer, Map<Long, VersionEdit.FlushRange> flushRanges) {
    this.cmp = cmp;
    this.flushRanges = Map.copyOf(flushRanges);
    this.buffer = buffer;
    this.nodes = List.copyOf(nodes);
    this.depth = depth;
    List<List<FileMeta>> copy = new ArrayList<>();
    for (List<FileMeta> l : levels) {
      copy.add(List.copyOf(l));
    }
    this.levels = List.copyOf(copy);
  }

  /** A version with {@code numLevels} empty levels and {@code buffer} beside them. */
  public static Version empty(InternalKeyComparator cmp, int numLevels, LevelBuffers buffer) {
    List<List<FileMeta>> levels = new ArrayList<>();
    for (int i = 0; i < numLevels; i++) {
      levels.add(List.of());
    }
    return new Version(cmp, levels, buffer);
  }

  private static List<List<NodeMeta>> emptyNodes(int numLevels) {
    List<List<NodeMeta>> out = new ArrayList<>();
    for (int i = 0; i < numLevels; i++) {
      out.add(List.of());
    }
    return out;
  }

  /** The on-disk levels of a node tree (LSA/IAM), 0 for a leveled tree. */
  public int depth() {
    return depth;
  }

  /** The nodes of level {@code level} of a node tree, sorted by key (empty for a leveled tree). */
  public List<NodeMeta> nodes(int level) {
    return nodes.get(level);
  }

  /** The user-key comparator of the store. */
  public KeyComparator userComparator() {
    return cmp.userComparator();
  }

  public int numLevels() {
    return levels.size();
  }

  /** The files of a level: level 0 newest first, deeper levels by key. */
  public List<FileMeta> files(int level) {
    return levels.get(level);
  }

  public long levelBytes(int level) {
    long sum = 0;
    for (FileMeta f : levels.get(level)) {
      sum += f.fileSize();
    }
    return sum;
  }

  /** Every file of every level. */
  public List<FileMeta> allFiles() {
    List<FileMeta> all = new ArrayList<>();
    levels.forEach(all::addAll);
    return all;
  }

  /**
   * The one file of level {@code level} ≥ 1 whose range may hold {@code userKey}, or null.
   * Binary search on the files' largest keys.
   */
  public FileMeta fileFor(int level, byte[] userKey) {
    FileMeta f = fileAtOrAfter(level, userKey);
    if (f == null) {
      return null;
    }
    byte[] smallest = f.smallestRef();
    KeyComparator user = cmp.userComparator();
    return user.compare(smallest, 0, InternalKey.userKeyLength(smallest.length), userKey, 0, userKey.length) <= 0 ? f : null;
  }

  /**
   * The first file of level {@code level} ≥ 1 whose largest key is ≥ {@code userKey} (the one a
   * seek to it lands in), or the level's first file if {@code userKey} is null; null if none.
   */
  public FileMeta fileAtOrAfter(int level, byte[] userKey) {
    List<FileMeta> files = levels.get(level);
    if (userKey == null) {
      return files.isEmpty() ? null : files.get(0);
    }
    KeyComparator user = cmp.userComparator();
    int lo = 0;
    int hi = files.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      byte[] largest = files.get(mid).largestRef();
      if (user.compare(largest, 0, InternalKey.userKeyLength(largest.length), userKey, 0, userKey.length) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo == files.size() ? null : files.get(lo);
  }

  /** Whether a file's user-key range contains {@code userKey}. */
  public boolean covers(FileMeta f, byte[] userKey) {
    KeyComparator user = cmp.userComparator();
    byte[] s = f.smallestRef();
    byte[] l = f.largestRef();
    return user.compare(s, 0, InternalKey.userKeyLength(s.length), userKey, 0, userKey.length) <= 0
        && user.compare(l, 0, InternalKey.userKeyLength(l.length), userKey, 0, userKey.length) >= 0;
  }

  /** Files of {@code level} whose user-key range meets [smallestUser, largestUser] (nulls are open). */
  public List<FileMeta> overlapping(int level, byte[] smallestUser, byte[] largestUser) {
    KeyComparator user = cmp.userComparator();
    List<FileMeta> out = new ArrayList<>();
    for (FileMeta f : levels.get(level)) {
      byte[] s = f.smallestRef();
      byte[] l = f.largestRef();
      boolean before = smallestUser != null
          && user.compare(l, 0, InternalKey.userKeyLength(l.length), smallestUser, 0, smallestUser.length) < 0;
      boolean after = largestUser != null
          && user.compare(s, 0, InternalKey.userKeyLength(s.length), largestUser, 0, largestUser.length) > 0;
      if (!before && !after) {
        out.add(f);
      }
    }
    return out;
  }

  /** The version this one becomes after {@code edit}. */
  public Version apply(VersionEdit edit) {
    if (depth > 0 || edit.touchesNodes()) {
      if (!edit.added().isEmpty() || !edit.removed().isEmpty()) {
        throw new IllegalStateException("a node tree's edit adds or removes bare files: " + edit);
      }
      return applyNodes(edit);
    }
    return applyFiles(edit);
  }

  /**
   * Applies node changes: removals, then puts (a put replaces the node of the same id on its
   * level). Each level must stay sorted with disjoint ranges, and nodes live in levels 1..depth.
   */
  private Version applyNodes(VersionEdit edit) {
    int newDepth = edit.depth() != null ? edit.depth() : depth;
    if (newDepth < 1 || newDepth >= numLevels()) {
      throw new IllegalStateException("node tree depth " + newDepth + " outside 1.." + (numLevels() - 1));
    }
    List<Map<Long, NodeMeta>> byLevel = new ArrayList<>();
    for (List<NodeMeta> l : nodes) {
      Map<Long, NodeMeta> m = new HashMap<>();
      for (NodeMeta n : l) {
        m.put(n.id(), n);
      }
      byLevel.add(m);
    }
    for (VersionEdit.NodeRemoval r : edit.removedNodes()) {
      if (byLevel.get(r.level()).remove(r.id()) == null) {
        throw new IllegalStateException("edit removes node " + r.id() + " absent from level " + r.level());
      }
    }
    for (VersionEdit.LevelNode p : edit.putNodes()) {
      if (p.level() < 1 || p.level() > newDepth) {
        throw new IllegalStateException("node " + p.node().id() + " put on level " + p.level() + " outside 1.." + newDepth);
      }
      byLevel.get(p.level()).put(p.node().id(), p.node());
    }
    KeyComparator user = cmp.userComparator();
    List<List<NodeMeta>> outNodes = new ArrayList<>();
    List<List<FileMeta>> outFiles = new ArrayList<>();
    for (int level = 0; level < byLevel.size(); level++) {
      List<NodeMeta> list = new ArrayList<>(byLevel.get(level).values());
      if (level > newDepth && !list.isEmpty()) {
        throw new IllegalStateException("level " + level + " holds nodes below the depth " + newDepth);
      }
      list.sort((a, b) -> user.compare(a.loRef(), b.loRef()));
      List<FileMeta> files = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        NodeMeta n = list.get(i);
        if (user.compare(n.loRef(), n.hiRef()) > 0) {
          throw new IllegalStateException("node with an empty range on level " + level + ": " + n);
        }
        if (i > 0 && user.compare(list.get(i - 1).hiRef(), n.loRef()) >= 0) {
          throw new IllegalStateException("overlapping nodes on level " + level + ": " + list.get(i - 1) + " and " + n);
        }
        if (n.file() != null) {
          files.add(n.file());
        }
      }
      outNodes.add(list);
      outFiles.add(files);
    }
    return new Version(cmp, outFiles, outNodes, newDepth, buffer, flushRanges);
  }

  private Version applyFiles(VersionEdit edit) {
    List<Map<Long, FileMeta>> byLevel = new ArrayList<>();
    for (List<FileMeta> l : levels) {
      Map<Long, FileMeta> m = new HashMap<>();
      for (FileMeta f : l) {
        m.put(f.fileNumber(), f);
      }
      byLevel.add(m);
    }
    for (VersionEdit.Removal r : edit.removed()) {
      if (byLevel.get(r.level()).remove(r.fileNumber()) == null) {
        throw new IllegalStateException("edit removes file " + r.fileNumber() + " absent from level " + r.level());
      }
    }
    for (VersionEdit.LevelFile a : edit.added()) {
      byLevel.get(a.level()).put(a.file().fileNumber(), a.file());
    }
    List<List<FileMeta>> out = new ArrayList<>();
    for (int level = 0; level < byLevel.size(); level++) {
      List<FileMeta> files = new ArrayList<>(byLevel.get(level).values());
      if (level == 0) {
        files.sort(Comparator.comparingLong(FileMeta::largestSequence).thenComparingLong(FileMeta::fileNumber).reversed());
      } else {
        files.sort((a, b) -> cmp.compare(a.smallestRef(), b.smallestRef()));
        for (int i = 1; i < files.size(); i++) {
          if (cmp.compare(files.get(i - 1).largestRef(), files.get(i).smallestRef()) >= 0) {
            throw new IllegalStateException("overlapping files on level " + level + ": "
                + files.get(i - 1) + " and " + files.get(i));
          }
        }
      }
      out.add(files);
    }
    Map<Long, VersionEdit.FlushRange> ranges = flushRanges;
    if (!ranges.isEmpty() || !edit.flushRanges().isEmpty()) { // tree=stack only
      Map<Long, VersionEdit.FlushRange> next = new HashMap<>(flushRanges);
      edit.flushRanges().forEach(r -> next.put(r.fileNumber(), r));
      next.keySet().retainAll(byLevel.get(0).keySet());
      ranges = next;
    }
    return new Version(cmp, out, emptyNodes(out.size()), 0, applyBuffer(edit), ranges);
  }

  /**
   * The buffer after the edit (tree=lsbm): its buffer change, whose effect is recorded in the edit
   * for the manifest; or, replaying the manifest, the recorded effect.
   */
  private LevelBuffers applyBuffer(VersionEdit edit) {
    if (edit.bufferChange() != null) {
      LevelBuffers next = buffer.apply(edit.bufferChange());
      edit.bufferDiff(next.diff(buffer));
      return next;
    }
    return edit.bufferDiff() == null ? buffer : buffer.replay(edit.bufferDiff());
  }

  /** tree=stack: the flushes level-0 file {@code fileNumber} holds, or null if none was recorded. */
  public VersionEdit.FlushRange flushRange(long fileNumber) {
    return flushRanges.get(fileNumber);
  }

  /** tree=lsbm: the compaction buffer lists of this version ({@link LevelBuffers#NONE} for the other trees). */
  public LevelBuffers buffer() {
    return buffer;
  }

  /**
   * Pins this version unless the purge has already released it (then false: it is retired and
   * unpinned, and its files may be gone). Lock-free, for {@link VersionSet#pinCurrent}.
   */
  boolean tryRef() {
    while (true) {
      int n = refs.get();
      if (n == RELEASED) {
        return false;
      }
      if (refs.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  public void unref() {
    if (refs.decrementAndGet() < 0) {
      throw new IllegalStateException("version released more often than pinned");
    }
  }

  /**
   * For the purge, on a retired version: true if nothing pins it, and then no one can pin it any
   * more ({@link #tryRef} fails), so its files may go; false if it is pinned.
   */
  boolean release() {
    return refs.get() == RELEASED || refs.compareAndSet(0, RELEASED);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < levels.size(); i++) {
      if (!levels.get(i).isEmpty()) {
        sb.append("L").append(i).append(levels.get(i)).append(' ');
      }
    }
    return sb.toString().trim();
  }
}
