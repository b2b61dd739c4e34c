package io.iam.bench.load;

/**
 * The point-read phase on one store.
 *
 * @param timed the gets
 * @param distribution how the loaded keys were chosen
 * @param misses gets that found no value (a run with any fails, so a result has 0)
 * @param engine the engine's counters after the reads
 */
public record ReadResult(Timed timed, KeyDistribution distribution, long misses, EngineCounters engine) {}
