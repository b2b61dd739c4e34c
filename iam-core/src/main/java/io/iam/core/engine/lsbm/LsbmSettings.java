package io.iam.core.engine.lsbm;

/**
 * What tree=lsbm's compaction buffer is configured with, from the store's options.
 *
 * @param gear {@code lsbm-levels=gear}: the levels alternate C_i and C_i′, kept in step by bLSM's
 *     gear scheduler; otherwise one run per level, compacted as tree=leveled
 * @param bufferFraction {@code lsbm-buffer-fraction}: B_i holds at most this fraction of C_i's budget
 * @param freezeShrink {@code lsbm-freeze-shrink}: a merge into C_i+1 that writes under (1 − this) of
 *     the bytes it read freezes B_i+1
 * @param trimThreshold {@code lsbm-trim-threshold}: a trim removes a buffer file with less than this
 *     fraction of its blocks cached
 * @param trimIntervalMs {@code lsbm-trim-interval-ms}: milliseconds between background trims; 0: none
 */
public record LsbmSettings(boolean gear, double bufferFraction, double freezeShrink, double trimThreshold,
    int trimIntervalMs) {}
