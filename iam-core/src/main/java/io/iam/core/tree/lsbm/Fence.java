package io.iam.core.tree.lsbm;

/**
 * A key range of C_i whose newest versions may have changed without the change being appended to
 * B_i (data moved down out of C_i, moved into it without a merge, merged into it while B_i was
 * frozen, or a buffer file holding newer versions was removed). Every buffer file of the level
 * appended <em>before</em> {@code epoch} must not answer for keys in [lo, hi]. The paper keeps
 * the minimum and maximum key of a removed file for the same purpose (§4.1, Algorithm 3 line 15).
 *
 * @param lo smallest user key covered, inclusive; null: unbounded
 * @param hi largest user key covered, inclusive; null: unbounded
 * @param epoch files with a smaller epoch are fenced
 */
public record Fence(byte[] lo, byte[] hi, long epoch) {}
