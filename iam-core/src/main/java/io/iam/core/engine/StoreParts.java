package io.iam.core.engine;

import io.iam.core.cache.BlockCache;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.manifest.VersionSet;
import io.iam.core.option.OptionValues;

/**
 * The parts of one open store that its {@link StoreTree} works with: the manifest, the table reader
 * cache and writer, the block cache, the statistics, the key order and the options.
 */
record StoreParts(String name, VersionSet versions, TableCache tables, TableWriter writer, BlockCache cache,
    Statistics stats, InternalKeyComparator cmp, OptionValues options) {}
