package io.iam.core.sim;

/** How bytes written are counted when a merge takes in the flush of the same step. */
public enum Accounting {
  /**
   * The paper's cost model (Problem 1): each step writes the components it creates. A flush that
   * a merge takes in at once is written only as part of the merged component, as in engines that
   * merge the memtable directly. This is what the paper's bounds (e.g. MinLatency's m) are about.
   */
  MODEL,
  /**
   * Real stores (HBase, AsterixDB) write the flushed component first and then merge it, so a flush
   * taken in by a merge is written twice.
   */
  FLUSH_THEN_MERGE
}
