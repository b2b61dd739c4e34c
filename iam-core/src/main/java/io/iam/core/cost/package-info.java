/**
 * The merge and I/O cost model of leveled and tiered LSM trees, as the Min-Max paper (Ton That et
 * al., SSDBM 2021) states it: formulas (1)–(6) ({@link io.iam.core.cost.LsmCostFormulas}), a
 * small simulation that actually merges runs to check them ({@link
 * io.iam.core.cost.LsmMergeSimulator}), and the per-level accounting of what a stack store
 * recorded ({@link io.iam.core.cost.RunMerge}, {@link io.iam.core.cost.RunLevelAccounting}), which
 * the engine's {@code tree=stack} is checked against. Min-Max compares itself with these LSMs in
 * {@code io.iam.core.minmax}.
 *
 * <p>Everything here is pure: no I/O, no clock, no threads.
 */
package io.iam.core.cost;
