package io.iam.core.engine.node;

import io.iam.core.cache.BlockCache;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.manifest.Version;
import io.iam.core.memtable.MemTable;
import io.iam.core.engine.seam.LevelFilesTree;
import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.seam.StoreParts;
import io.iam.core.engine.seam.TreeHost;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * tree=iam, lsa and lsm-merge: the node trees of Gong, He, Gong, Lei (ICPP 2019), run by {@link
 * NodeTree}. A memtable flush waits until the level-1 nodes it writes into are free and, if
 * internal, not full, then appends (or merges) its records into them; node flushes, splits, moves
 * and combines run on the compaction threads over nodes no other job holds, and a level is added
 * inline when the store is idle. Recovered memtables flush in the background like any other. While
 * a memtable flush waits, no job starts on the level-1 nodes it waits for, unless they are full and
 * must flush first: it waits for at most the jobs running when it asked.
 */
public final class NodeStoreTree extends LevelFilesTree {

  private static final System.Logger LOG = System.getLogger(NodeStoreTree.class.getName());

  private final NodeTree tree;
  private final TreeHost host;
  private final StoreCounters stats;
  private final BlockCache cache;
  private final InternalKeyComparator cmp;
  /** Nodes reserved by running jobs and the running memtable flush. Guarded by the store's mutex. */
  private final Set<Long> busyNodes = new HashSet<>();
  /**
   * Level-1 nodes a memtable flush that could not start waits for ({@link
   * NodeTree#memtableFlushWants}): no job starts on them until it has started. Guarded by the
   * store's mutex.
   */
  private final Set<Long> wantedNodes = new HashSet<>();

  /** The node tree {@code settings} configure. */
  public NodeStoreTree(StoreParts parts, TreeHost host, NodeSettings settings) {
    super(parts.tables());
    this.tree = new NodeTree(parts.versions(), parts.tables(), parts.writer(), parts.stats(), parts.cache(), parts.cmp(),
        parts.levels(), settings);
    this.host = host;
    this.stats = parts.stats();
    this.cache = parts.cache();
    this.cmp = parts.cmp();
  }

  /** The node tree's executor. */
  public NodeTree nodeTree() {
    return tree;
  }

  @Override
  public void opened() {
    tree.refreshProtection();
  }

  @Override
  public int stallFiles(Version v) {
    return v.files(0).size();
  }

  @Override
  public Flush flush(MemTable table, long logNumber) {
    NodeTree.Source source;
    try {
      source = NodeTree.Source.of(table.iterator(), cmp.userComparator());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // a memtable iterator does no I/O
    }
    List<Long> filled = Collections.synchronizedList(new ArrayList<>());
    return new Flush() {
      private NodeJob job;

      @Override
      public String name() {
        return "memtable flush";
      }

      @Override
      public boolean tryStart(long waitedNanos) {
        job = tree.pickMemtableFlush(host.current(), table, source, busyNodes, waitedNanos);
        wantedNodes.clear();
        if (job == null) {
          wantedNodes.addAll(tree.memtableFlushWants(host.current(), source));
          return false;
        }
        busyNodes.addAll(job.reserved());
        return true;
      }

      @Override
      public long patienceNanos() {
        return tree.levelOneFullWaitNanos();
      }

      @Override
      public void run(long nextLog, long smallestSnapshot, List<Long> outputs) throws IOException {
        tree.run(job, source, nextLog, new NodeTree.Io(smallestSnapshot, host::newOutputNumber, outputs,
            host.rateLimiter(), filled));
      }

      @Override
      public void ended(IOException failure) {
        busyNodes.removeAll(job.reserved());
        if (failure != null) {
          filled.forEach(cache::evictFile); // their space may be written again
        }
      }
    };
  }

  @Override
  public void schedule(TreeHost h) {
    while (h.running() < h.threads()) {
      boolean idle = h.running() == 0 && !h.flushRunning();
      Set<Long> taken = busyNodes;
      if (!wantedNodes.isEmpty()) {
        taken = new HashSet<>(busyNodes);
        taken.addAll(wantedNodes);
      }
      NodeJob job = tree.pick(h.current(), taken, idle);
      if (job == null) {
        return;
      }
      if (job.kind() == NodeJob.Kind.ADD_LEVEL) {
        try {
          tree.addLevel();
        } catch (IOException e) {
          LOG.log(Level.WARNING, "could not add a level; will retry: " + e.getMessage(), e);
          return;
        }
        continue;
      }
      tree.started(job);
      if (h.running() > 0) {
        stats.parallelJobs.increment();
      }
      busyNodes.addAll(job.reserved());
      start(h, job);
    }
  }

  /** Runs a node flush, split, move or combine on a compaction thread. Holds the mutex. */
  private void start(TreeHost h, NodeJob job) {
    List<Long> filled = Collections.synchronizedList(new ArrayList<>());
    boolean[] shrink = {false};
    h.start("node-tree " + job.kind(), outputs -> {
      shrink[0] = tree.run(job, null, null,
          new NodeTree.Io(h.smallestSnapshot(), h::newOutputNumber, outputs, h.rateLimiter(), filled));
      stats.compactions.increment();
    }, (failure, outputs) -> {
      if (shrink[0] && failure == null) {
        try {
          tree.shrink(job, busyNodes);
        } catch (IOException e) {
          LOG.log(Level.WARNING, "could not rebalance node ranges after a flush: " + e.getMessage(), e);
        }
      }
      busyNodes.removeAll(job.reserved());
      if (failure != null) {
        filled.forEach(cache::evictFile); // their space may be written again
      }
    });
  }

  @Override
  public boolean hasWork(Version v) {
    return tree.pick(v, busyNodes, true) != null;
  }

  @Override
  public void close() {
    tree.close();
  }
}
