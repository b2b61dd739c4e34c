/**
 * {@code iam load}: a YCSB-style load (hashed keys, incompressible values) run against a store
 * under test, a {@link io.iam.bench.load.LoadTarget}, reporting throughput, put latency, write
 * amplification per level and disk size; optionally the same load on a peer store ({@code --vs
 * rocksdb}) in the same invocation.
 *
 * <p>Stores are registered by name in {@link io.iam.bench.load.LoadTargets}.
 */
package io.iam.bench.load;
