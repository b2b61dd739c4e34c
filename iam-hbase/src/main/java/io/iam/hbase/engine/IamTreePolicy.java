package io.iam.hbase.engine;

import io.iam.core.tree.layout.NodePlan;
import io.iam.core.tree.layout.TreeLayout;
import io.iam.core.tree.layout.TreePlanner;
import java.util.Collection;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreConfigInformation;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionPolicy;

/**
 * The engine's compaction policy: the next tree step from {@link TreePlanner}, with the mode
 * chosen from the engine's settings and the cache size M (the region server's block cache
 * capacity unless {@code iam.engine.cache-size} fixes it) at every plan, so m and k follow the
 * data as it grows. Never asks for a major compaction.
 */
public final class IamTreePolicy extends CompactionPolicy {

  private final EngineSettings settings;
  private final LongSupplier blockCacheCapacity;

  /**
   * @param blockCacheCapacity the region server's block cache capacity in bytes (0 if none)
   */
  public IamTreePolicy(Configuration conf, StoreConfigInformation store, EngineSettings settings,
      LongSupplier blockCacheCapacity) {
    super(conf, store);
    this.settings = settings;
    this.blockCacheCapacity = blockCacheCapacity;
  }

  /** The settings the store runs with. */
  public EngineSettings settings() {
    return settings;
  }

  /** A planner for the current cache size. */
  public TreePlanner planner() {
    return settings.planner(blockCacheCapacity.getAsLong());
  }

  /** The next step for {@code layout}, if any. */
  public Optional<NodePlan<HStoreFile>> plan(TreeLayout<HStoreFile> layout) {
    return planner().next(layout);
  }

  @Override
  public boolean shouldPerformMajorCompaction(Collection<HStoreFile> filesToCompact) {
    return false;
  }

  @Override
  public boolean throttleCompaction(long compactionSize) {
    return compactionSize > comConf.getThrottlePoint();
  }
}
