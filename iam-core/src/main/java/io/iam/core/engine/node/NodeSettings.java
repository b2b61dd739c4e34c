package io.iam.core.engine.node;

import io.iam.core.tree.iam.Mode;

/**
 * What a node tree (tree=iam, lsa or lsm-merge) is configured with, from the store's options.
 *
 * @param kind which of the three trees: how its nodes append and merge
 * @param fanout {@code fanout}: t, the nodes a node has below it
 * @param capacity {@code memtable-size}: C_t, the bytes at which a node is full
 * @param flushWriters {@code node-flush-writers}: children's shares of one node flush encoded at once
 * @param flushIoDepth {@code node-flush-io-depth}: children's writes of one node flush in flight at
 *     once (raised to {@code flushWriters} if lower)
 * @param mixedLevel {@code mixed-level}: tree=iam's fixed mixed level m; 0 chooses it from the cache
 * @param mixedLevelSequences {@code mixed-level-sequences}: tree=iam's fixed k; 0 chooses it from the
 *     cache
 * @param halfCacheBudget {@code append-cache-budget=half}: appended sequences may take half the block
 *     cache (M/2) rather than all of it
 * @param cacheOnWrite {@code append-caching=on-write}: tree=iam puts the sequences it appends into the
 *     block cache as it writes them
 * @param protectOldest {@code protected-sequences=paper}: the m/k rule also keeps the oldest sequence
 *     of each node above the mixed level in memory
 * @param levelOneFullWaitNanos {@code level-one-full-wait-ms}: how long a memtable flush waits for a
 *     level-1 node at the hard limit before it writes into it anyway
 */
public record NodeSettings(Mode.Kind kind, int fanout, long capacity, int flushWriters, int flushIoDepth,
    int mixedLevel, int mixedLevelSequences, boolean halfCacheBudget, boolean cacheOnWrite, boolean protectOldest,
    long levelOneFullWaitNanos) {}
