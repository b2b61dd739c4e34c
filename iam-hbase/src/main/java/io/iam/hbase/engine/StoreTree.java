package io.iam.hbase.engine;

import java.beans.ConstructorProperties;
import java.util.List;

/**
 * One store's IAM tree as an operator reads it over JMX ({@link IamStoresMXBean}): what the store
 * runs, its shape per level, what it has written per level since it opened, and how long its
 * memstore flushes have had to wait for it. Level lists are indexed by level − 1; the written list
 * by level (index 0: files outside the tree, such as reference files after a split, or bulk loads).
 * Immutable.
 */
public final class StoreTree {

  private final String store;
  private final String tree;
  private final int mixedLevel;
  private final int sequenceCap;
  private final int depth;
  private final List<Integer> nodesPerLevel;
  private final List<Integer> hfilesPerLevel;
  private final List<Long> bytesPerLevel;
  private final List<Long> bytesWrittenPerLevel;
  private final int hfiles;
  private final int unplacedFiles;
  private final boolean pendingWork;
  private final boolean flushesWaiting;
  private final double levelOnePressure;
  private final long flushWaitMillis;

  @ConstructorProperties({"store", "tree", "mixedLevel", "sequenceCap", "depth", "nodesPerLevel", "hfilesPerLevel",
      "bytesPerLevel", "bytesWrittenPerLevel", "hfiles", "unplacedFiles", "pendingWork", "flushesWaiting",
      "levelOnePressure", "flushWaitMillis"})
  public StoreTree(String store, String tree, int mixedLevel, int sequenceCap, int depth, List<Integer> nodesPerLevel,
      List<Integer> hfilesPerLevel, List<Long> bytesPerLevel, List<Long> bytesWrittenPerLevel, int hfiles,
      int unplacedFiles, boolean pendingWork, boolean flushesWaiting, double levelOnePressure, long flushWaitMillis) {
    this.store = store;
    this.tree = tree;
    this.mixedLevel = mixedLevel;
    this.sequenceCap = sequenceCap;
    this.depth = depth;
    this.nodesPerLevel = List.copyOf(nodesPerLevel);
    this.hfilesPerLevel = List.copyOf(hfilesPerLevel);
    this.bytesPerLevel = List.copyOf(bytesPerLevel);
    this.bytesWrittenPerLevel = List.copyOf(bytesWrittenPerLevel);
    this.hfiles = hfiles;
    this.unplacedFiles = unplacedFiles;
    this.pendingWork = pendingWork;
    this.flushesWaiting = flushesWaiting;
    this.levelOnePressure = levelOnePressure;
    this.flushWaitMillis = flushWaitMillis;
  }

  /** {@code table/region/family}. */
  public String getStore() {
    return store;
  }

  /** iam, lsa or lsm-merge. */
  public String getTree() {
    return tree;
  }

  /** m, the mixed level the tree plans with now (0 for lsa and lsm-merge). */
  public int getMixedLevel() {
    return mixedLevel;
  }

  /** k, the sequences a node of the mixed level holds before it is merged (0 for lsa and lsm-merge). */
  public int getSequenceCap() {
    return sequenceCap;
  }

  public int getDepth() {
    return depth;
  }

  public List<Integer> getNodesPerLevel() {
    return nodesPerLevel;
  }

  /** HFiles per level, the markers of emptied nodes and level 1's shared flush files included. */
  public List<Integer> getHfilesPerLevel() {
    return hfilesPerLevel;
  }

  /** Cell bytes each level holds (D_j). */
  public List<Long> getBytesPerLevel() {
    return bytesPerLevel;
  }

  /** HFile bytes written per level since the store opened (index 0: files outside the tree). */
  public List<Long> getBytesWrittenPerLevel() {
    return bytesWrittenPerLevel;
  }

  /** All of the store's HFiles. */
  public int getHfiles() {
    return hfiles;
  }

  /** HFiles outside the tree, waiting to be adopted. */
  public int getUnplacedFiles() {
    return unplacedFiles;
  }

  /** Whether the tree has a step to run. */
  public boolean isPendingWork() {
    return pendingWork;
  }

  /** Whether memstore flushes wait for the tree now (a level-1 node at twice its capacity). */
  public boolean isFlushesWaiting() {
    return flushesWaiting;
  }

  /** Level 1's fill past C_t: 0 up to C_t, 1 at the hard limit (HBase's compaction pressure). */
  public double getLevelOnePressure() {
    return levelOnePressure;
  }

  /** Total time memstore flushes of this store have had to wait for the tree since it opened. */
  public long getFlushWaitMillis() {
    return flushWaitMillis;
  }
}
