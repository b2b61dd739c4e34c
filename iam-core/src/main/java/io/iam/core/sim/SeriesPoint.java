package io.iam.core.sim;

/**
 * The state of a simulation after {@code flushes} flushes.
 *
 * @param flushes flushes so far
 * @param writeAmplification bytes written so far ÷ bytes flushed so far
 * @param components components after this step's decision
 * @param averageComponents mean component count over the steps so far
 * @param maxComponents largest component count after any step so far
 * @param merges merges so far
 * @param bytesFlushed sum of the flush lengths so far
 * @param bytesWritten bytes written by flushes and merges so far
 */
public record SeriesPoint(
    long flushes,
    double writeAmplification,
    int components,
    double averageComponents,
    int maxComponents,
    long merges,
    long bytesFlushed,
    long bytesWritten) {}
