package io.iam.core.tree.lsbm;

/**
 * The parameters of the compaction buffer, from the store options.
 *
 * @param levelTargetBytes per level, the byte budget S_i of C_i (index 0 unused)
 * @param maxBufferFraction B_i may hold at most this fraction of S_i; beyond it, files with the
 *     smallest maximum key go first (the paper's pace, Algorithm 1 lines 18–20)
 * @param freezeShrink a merge into C_{i+1} that writes less than (1 − this) of the bytes it read
 *     found repeated data: B_{i+1} freezes (§4.1); 1 never freezes
 * @param trimThreshold a trim removes a buffer file whose cached fraction of blocks is below this
 *     (Algorithm 2)
 * @param gear whether the levels are the halves of {@link io.iam.core.tree.GearPicker} ({@link
 *     LsbmLevels#GEAR}): then B_i′ (an even level) is removed at the pace C_i′ drains, and B_i
 *     unfreezes when C_i becomes C_i′, instead of after S_i bytes have left it
 */
public record LsbmConfig(long[] levelTargetBytes, double maxBufferFraction, double freezeShrink, double trimThreshold,
    boolean gear) {

  public LsbmConfig {
    levelTargetBytes = levelTargetBytes.clone();
  }

  /** A configuration for levels of one run each ({@link LsbmLevels#LEVELED}). */
  public LsbmConfig(long[] levelTargetBytes, double maxBufferFraction, double freezeShrink, double trimThreshold) {
    this(levelTargetBytes, maxBufferFraction, freezeShrink, trimThreshold, false);
  }

  /** The most bytes B_{@code level} may hold. */
  public long capBytes(int level) {
    if (level <= 0 || level >= levelTargetBytes.length) {
      return 0;
    }
    return (long) Math.min(Long.MAX_VALUE, levelTargetBytes[level] * maxBufferFraction);
  }

  public long targetBytes(int level) {
    return level < levelTargetBytes.length ? levelTargetBytes[level] : Long.MAX_VALUE;
  }
}
