package io.iam.core.engine.node;

import io.iam.core.memtable.MemTable;
import io.iam.core.manifest.NodeMeta;
import java.util.Set;

/**
 * One piece of background work on a node tree, chosen under the store's mutex by {@link
 * NodeTree#pick} or {@link NodeTree#pickMemtableFlush} and run outside it by {@link NodeTree#run}.
 * It names the nodes it may change ({@code reserved}); no two running jobs share one, which is
 * what lets jobs run in parallel (the paper's I-nt) with the results of one thread.
 *
 * @param kind what to do
 * @param level the level of {@code node} (0 for a memtable flush)
 * @param node the node to flush, split, move or combine; null for a memtable flush or a new level
 * @param memtable the memtable to flush, or null
 * @param reserved ids of every node the job may change
 */
record NodeJob(Kind kind, int level, NodeMeta node, MemTable memtable, Set<Long> reserved) {

  /** The kinds of work. */
  enum Kind {
    /** Write a full memtable into level 1 (a flush of the level-0 node). */
    FLUSH_MEMTABLE,
    /** Flush, split or move a full node of an internal level. */
    FLUSH_NODE,
    /** Flush a node away to bring its level back to t^i nodes (§4.2.3). */
    COMBINE,
    /** Add an empty leaf level (metadata only; runs when nothing else does). */
    ADD_LEVEL
  }

  NodeJob {
    reserved = Set.copyOf(reserved);
  }
}
