/**
 * The pure Min-Max kernel (Ton That et al., "On Lowering Merge Costs of an LSM Tree", SSDBM
 * 2021): a sorted write cache that evicts its most compact window of keys as a bucket
 * ({@link io.iam.core.minmax.MinMaxBuffer}), an interval tree over the buckets' key ranges
 * ({@link io.iam.core.minmax.IntervalBTree}), reads that return the newest version of each key
 * ({@link io.iam.core.minmax.MinMaxTree}), and what Min-Max and leveled and tiered LSM trees cost
 * on one stream ({@link io.iam.core.minmax.CostComparison}; the LSM cost model is {@link
 * io.iam.core.cost}).
 *
 * <p>The window logic ({@link io.iam.core.minmax.WindowCache}) and the IB-tree are generic in the
 * key; {@code MinMaxBuffer} and {@code MinMaxTree} use {@code long} keys, and the
 * engine's {@code tree=minmax} uses them over byte keys ({@link io.iam.core.minmax.ByteKeySpan}).
 *
 * <p>Everything here is pure: no I/O, no clock, no threads. See docs/minmax.md.
 */
package io.iam.core.minmax;
