package io.iam.core.tree.iam;

/**
 * What a {@link TreeSimulator} run measured. Arrays are indexed by level − 1 (index 0 is L1) and
 * cover the final depth. Write amplification of a level is the bytes written into it ÷ the bytes
 * inserted; the memtable's own write into L1 counts as L1's.
 *
 * @param bytesWritten per level: appended, merged, split, cut and memtable-written bytes
 * @param nodes per level, the final node count
 * @param meanSequences per level, the final mean sequences per node (0 for an empty level)
 * @param maxSequences per level, the final largest sequence count of a node
 */
public record TreeSimResult(
    Mode mode,
    long flushes,
    long bytesInserted,
    long[] bytesWritten,
    int[] nodes,
    double[] meanSequences,
    int[] maxSequences,
    long moves,
    long splits,
    long combines) {

  /** n, the final number of on-disk levels. */
  public int depth() {
    return bytesWritten.length;
  }

  /** Write amplification of level {@code level} (1..n). */
  public double writeAmplification(int level) {
    return (double) bytesWritten[level - 1] / bytesInserted;
  }

  /** Total write amplification: every byte written ÷ bytes inserted. */
  public double totalWriteAmplification() {
    long sum = 0;
    for (long b : bytesWritten) {
      sum += b;
    }
    return (double) sum / bytesInserted;
  }
}
