package io.iam.core.engine.minmax;

/**
 * What tree=minmax is configured with, from the store's options.
 *
 * @param cacheEntries {@code minmax-cache}: B, the entries the sorted write cache holds
 * @param window {@code minmax-window}: W, the entries of a window, hence of a bucket (at most B)
 * @param sortOverlap {@code minmax-sort-overlap}: d; a background sort merges the buckets holding a
 *     key once more than d buckets hold it; 0: no sort
 */
public record MinMaxSettings(int cacheEntries, int window, int sortOverlap) {}
