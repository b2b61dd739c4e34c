package io.iam.core.tree.layout;

/**
 * How far a host's tree is behind its writes, as {@link TreePlanner#backlog} reads it from a
 * layout. A host turns it into its own back-pressure: HBase's flush blocking and compaction
 * pressure, for example.
 *
 * @param pending whether the tree has a step to run
 * @param flushMustWait whether the next memstore flush should wait for that step: a level-1 node
 *     is at the hard limit ({@link io.iam.core.tree.iam.FlushPlanner#LEVEL_ONE_HARD_LIMIT} × C_t)
 *     and the tree has a step to run (so waiting always ends)
 * @param levelOnePressure how full level 1 is past C_t: its fullest node's bytes over C_t, minus 1,
 *     at least 0. 0 while every level-1 node holds at most C_t, 1 at the hard limit
 */
public record Backlog(boolean pending, boolean flushMustWait, double levelOnePressure) {

  /** A tree with nothing to do. */
  public static final Backlog SETTLED = new Backlog(false, false, 0);
}
