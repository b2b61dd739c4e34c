/**
 * {@code iam load}: a YCSB-style load (hashed keys, incompressible values) run against a store
 * under test, a {@link io.iam.bench.load.LoadTarget}, reporting throughput, put latency, write
 * amplification per level and disk size; then, optionally, the {@link io.iam.bench.load.Phases}
 * after the load on the same store (overwrites with space amplification, point reads, scans) with
 * the engine's tree counters ({@link io.iam.bench.load.EngineCounters}); optionally the same load
 * and phases on a peer store ({@code --vs rocksdb}) in the same invocation.
 *
 * <p>Stores are registered by name in {@link io.iam.bench.load.LoadTargets}: IAM's engine by its
 * trees ({@code leveled}, {@link io.iam.bench.load.IamStoreTarget}), and RocksDB ({@code
 * rocksdb}, {@link io.iam.bench.load.RocksDbTarget}).
 */
package io.iam.bench.load;
