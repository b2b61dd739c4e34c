package io.iam.hbase.engine;

import io.iam.core.tree.layout.Backlog;
import io.iam.core.tree.layout.Claim;
import io.iam.core.tree.layout.NodePlan;
import io.iam.core.tree.layout.PlanCache;
import io.iam.core.tree.layout.TreeLayout;
import io.iam.core.tree.layout.TreePlanner;
import java.util.Collection;
import java.util.List;
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
 * data as it grows. Never asks for a major compaction. Large steps go to HBase's large compaction
 * pool (see {@link #throttleCompaction}).
 *
 * <p>Plans are kept for the current tree ({@link PlanCache}): HBase asks for the same one several
 * times per memstore flush.
 */
public final class IamTreePolicy extends CompactionPolicy {

  /** Steps reading more than this many C_t run in HBase's large compaction pool. */
  static final long LARGE_STEP_NODES = 3;
  private static final String THROTTLE_POINT = "hbase.regionserver.thread.compaction.throttle";

  private final EngineSettings settings;
  private final LongSupplier blockCacheCapacity;
  private final boolean explicitThrottlePoint;
  private final PlanCache<HStoreFile> plans = new PlanCache<>();

  /**
   * @param blockCacheCapacity the region server's block cache capacity in bytes (0 if none)
   */
  public IamTreePolicy(Configuration conf, StoreConfigInformation store, EngineSettings settings,
      LongSupplier blockCacheCapacity) {
    super(conf, store);
    this.settings = settings;
    this.blockCacheCapacity = blockCacheCapacity;
    this.explicitThrottlePoint = conf.get(THROTTLE_POINT) != null;
  }

  /** The settings the store runs with. */
  public EngineSettings settings() {
    return settings;
  }

  /** A planner for the current cache size. */
  public TreePlanner planner() {
    return settings.planner(blockCacheCapacity.getAsLong());
  }

  /** The next step for {@code layout} that can run beside the {@code running} steps (none: empty), if any. */
  public Optional<NodePlan<HStoreFile>> plan(TreeLayout<HStoreFile> layout, Collection<Claim> running) {
    return plans.next(layout, running, blockCacheCapacity.getAsLong(), settings::planner);
  }

  /** How far {@code layout} is behind, from the plan with nothing running ({@link #plan}). */
  public Backlog backlog(TreeLayout<HStoreFile> layout) {
    return planner().backlog(layout, plan(layout, List.of()).isPresent());
  }

  @Override
  public boolean shouldPerformMajorCompaction(Collection<HStoreFile> filesToCompact) {
    return false;
  }

  /**
   * Which of HBase's compaction pools a step runs in: a step reading more than {@link
   * #LARGE_STEP_NODES} × C_t (a merge that reads children) goes to the large pool, the rest (a
   * level-1 node appending into its children, a follow-up merge of a level-1 node) to the small
   * one, so level 1 keeps draining while a deep merge runs. HBase's own rule (twice {@code
   * hbase.hstore.compaction.max} memstores) does not see C_t: at the default 128 MiB nodes and
   * memstores it would put every step in the small pool. An explicit {@code
   * hbase.regionserver.thread.compaction.throttle} wins.
   */
  @Override
  public boolean throttleCompaction(long compactionSize) {
    long point = explicitThrottlePoint ? comConf.getThrottlePoint() : LARGE_STEP_NODES * settings.nodeCapacity();
    return compactionSize > point;
  }
}
