/**
 * The LSbM-tree's compaction buffer (Teng, Guo, Lee, Chen, Zhang, Ma, Zhang, ACM TOS 2018, §4–§5) as pure parts of the
 * leveled tree's {@code tree=lsbm} mode: which files a compaction appends to a buffer list B_i,
 * which files each output was merged from (its sources, what buffered reads use), how fast buffer files are retired, which files a trim removes.
 * Nothing here does I/O; the engine supplies residency counts and level budgets and executes
 * the result. See docs/lsbm.md.
 */
package io.iam.core.tree.lsbm;
