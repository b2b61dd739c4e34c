package io.iam.core.engine.stack;

import io.iam.core.manifest.Version;
import io.iam.core.memtable.MemTable;
import io.iam.core.engine.seam.LevelFilesTree;
import io.iam.core.engine.seam.StoreParts;
import io.iam.core.engine.seam.TreeHost;
import io.iam.core.policy.MergePolicy;

/**
 * tree=stack: a stack merge policy of the bounded-depth paper, run by {@link StackEngine}. Level 0
 * holds the stack's runs, newest first (the write stall triggers do not count them); a memtable
 * flush writes its run merged with the runs the policy names, so no job runs apart from flushes.
 */
public final class StackStoreTree extends LevelFilesTree {

  private final StackEngine stack;
  private final TreeHost host;

  /** tree=stack, shaped by {@code policy}. */
  public StackStoreTree(StoreParts parts, TreeHost host, MergePolicy policy) {
    super(parts.tables());
    this.stack = new StackEngine(parts, policy);
    this.host = host;
  }

  /** The policy's executor. */
  public StackEngine engine() {
    return stack;
  }

  @Override
  public int stallFiles(Version v) {
    return 0;
  }

  @Override
  public Flush flush(MemTable table, long logNumber) {
    return Flush.of("stack flush", (nextLog, smallestSnapshot, outputs) -> stack.flush(table, nextLog, smallestSnapshot,
        host::newOutputNumber, outputs, host.rateLimiter()));
  }

  @Override
  public void schedule(TreeHost h) {
    // a stack store merges as part of its flushes
  }

  @Override
  public boolean hasWork(Version v) {
    return false;
  }
}
