/**
 * The pure kernel of the LSA-tree and the IAM-tree (Gong, He, Gong, Lei, ICPP 2019, sections 4 and 5).
 *
 * <p>Everything here is metadata in, a plan out: no I/O, clocks or threads. Keys are {@code long}s
 * in this model; the engine will map its byte[] key ranges onto these plans later. {@link
 * io.iam.core.tree.iam.MkChooser} picks the mixed level and its sequence cap, {@link
 * io.iam.core.tree.iam.FlushPlanner} plans the flush of a full node, {@link
 * io.iam.core.tree.iam.CombinePlanner} keeps the per-level node counts, and {@link
 * io.iam.core.tree.iam.TreeSimulator} runs the plans on an in-memory model to measure write
 * amplification.
 */
package io.iam.core.tree.iam;
