package io.iam.core.engine.seam;

import io.iam.core.cache.BlockCache;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.manifest.VersionSet;

/**
 * The parts of one open store that its {@link StoreTree} works with: the manifest, the table reader
 * cache and writer, the block cache, the counters, the key order and the number of levels. What a
 * tree is configured with apart from these (its options) it gets from the factory that makes it.
 *
 * @param name the store's name in thread names and messages (its directory's name)
 * @param levels the levels of the store's versions, level 0 included ({@code max-levels})
 */
public record StoreParts(String name, VersionSet versions, TableCache tables, TableWriter writer, BlockCache cache,
    StoreCounters stats, InternalKeyComparator cmp, int levels) {}
