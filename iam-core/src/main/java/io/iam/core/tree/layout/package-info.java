/**
 * The LSA/IAM node tree kept in files, for hosts that store each sorted sequence as a file (the
 * HBase store engine): the tree rebuilt from file tags ({@link io.iam.core.tree.layout.TreeLayout}),
 * the planner that turns the kernel's plans into files to read and nodes to write ({@link
 * io.iam.core.tree.layout.TreePlanner}), the router that sends each row to its output ({@link
 * io.iam.core.tree.layout.NodeRouter}), and a simulator that runs all three on files in memory
 * ({@link io.iam.core.tree.layout.LayoutSimulator}). Once level 1 is internal, a memstore flush is
 * one file shared by level 1's nodes ({@link io.iam.core.tree.layout.Slices}), and level 1 empties
 * as a whole. A host that asks for the same plan more than once keeps it in a {@link
 * io.iam.core.tree.layout.PlanCache}. Pure: no host types, no I/O.
 */
package io.iam.core.tree.layout;
