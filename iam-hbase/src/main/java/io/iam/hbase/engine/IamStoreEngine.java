package io.iam.hbase.engine;

import io.iam.core.tree.iam.FlushPlanner;
import io.iam.core.tree.iam.Mode;
import io.iam.core.tree.layout.Backlog;
import io.iam.core.tree.layout.Claim;
import io.iam.core.tree.layout.NodePlan;
import io.iam.core.tree.layout.TreeLayout;
import io.iam.core.tree.layout.Target;
import io.iam.core.option.InvalidOptionsException;
import io.iam.hbase.compaction.PendingWorkRequester;
import io.iam.hbase.compaction.ThroughputCheck;
import io.iam.hbase.read.DeferredStartStoreFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionContext;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequestImpl;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.hadoop.hbase.security.User;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The IAM-tree (or LSA-tree, or a merging node tree) as an HBase store engine. Select it with
 * {@code hbase.hstore.engine.class=io.iam.hbase.engine.IamStoreEngine} (site, table or column
 * family); its options are {@code iam.engine.*} ({@link EngineSettings}).
 *
 * <p>Flushes write level 1 ({@link IamStoreFlusher}); each compaction is one tree step planned by
 * iam-core's kernel ({@link IamTreePolicy}) and written by {@link IamCompactor}; the store's files
 * and tree are kept by {@link IamStoreFileManager}. Steps on disjoint nodes run side by side (the
 * planner is given the running steps' {@link Claim}s); a step that changes the tree as a whole
 * runs alone.
 *
 * <p>A bad {@code iam.engine.*} value does not keep the region from opening: the store logs an
 * error naming the property and runs with the defaults (the master's validator should have
 * refused the value before it reached a region server).
 */
public class IamStoreEngine
    extends StoreEngine<IamStoreFlusher, IamTreePolicy, IamCompactor, IamStoreFileManager> {

  private static final Logger LOG = LoggerFactory.getLogger(IamStoreEngine.class);
  private HStore store;
  /**
   * The steps selected and not known to have ended, with what each holds. A step has ended once
   * none of its files is compacting any more (HBase removes them after the commit, or when the
   * request is cancelled); {@link TreeStep#select} drops those entries.
   */
  private final Map<TreeStep, Claim> running = new ConcurrentHashMap<>();
  private int maxRunningSteps;

  @Override
  protected void createComponents(Configuration conf, HStore store, CellComparator comparator) throws IOException {
    EngineSettings settings = settingsFor(conf, store.toString());
    maxRunningSteps = settings.maxRunningSteps();
    compactionPolicy = new IamTreePolicy(conf, store, settings, () -> blockCacheCapacity(store));
    IamTreePolicy policy = compactionPolicy;
    storeFileManager = new IamStoreFileManager((int) Math.min(Integer.MAX_VALUE, store.getBlockingFileCount()),
        policy::backlog);
    storeFlusher = new IamStoreFlusher(conf, store, policy::planner, storeFileManager);
    compactor = new IamCompactor(conf, store);
    this.store = store;
    IamStoreFileManager files = storeFileManager;
    String name = store.getTableName().getNameAsString() + "/" + store.getRegionInfo().getEncodedName() + "/"
        + store.getColumnFamilyName();
    IamStores.get().add(files, () -> treeView(name, policy, files));
    PendingWorkRequester.get().watch(store, files::pendingWork);
    LOG.info("store {}: IAM store engine {}; memstore flushes wait only while a level-1 node holds {} x C_t"
        + " (hbase.hstore.blockingStoreFiles={} caps the file count HBase sees otherwise)", name, settings,
        FlushPlanner.LEVEL_ONE_HARD_LIMIT, store.getBlockingFileCount());
    ThroughputCheck.noteForTree(conf).ifPresent(n -> ThroughputCheck.logOnce(LOG, name, n));
  }

  /**
   * Opens a store file whose scanners defer a seek that lands before the file's first row
   * ({@link DeferredStartStoreFile}): a short scan in a tree of many HFiles then reads only the
   * files whose rows it reaches. Otherwise as HBase opens a store file.
   */
  @Override
  public HStoreFile createStoreFileAndReader(StoreFileInfo info) throws IOException {
    info.setRegionCoprocessorHost(store.getHRegion().getCoprocessorHost());
    HStoreFile file = new DeferredStartStoreFile(info, store.getColumnFamilyDescriptor().getBloomFilterType(),
        store.getCacheConfig(), getBloomFilterMetrics());
    file.initReader();
    return file;
  }

  /** What {@link IamStores} shows of one store. */
  static StoreTree treeView(String name, IamTreePolicy policy, IamStoreFileManager files) {
    TreeLayout<HStoreFile> layout = files.layout();
    Mode mode = policy.planner().mode(layout);
    Backlog backlog = files.backlog();
    List<Integer> nodes = new ArrayList<>();
    List<Integer> hfiles = new ArrayList<>();
    List<Long> bytes = new ArrayList<>();
    for (int i = 1; i <= layout.depth(); i++) {
      nodes.add(layout.level(i).size());
      hfiles.add(layout.fileCount(i));
      bytes.add(layout.level(i).stream().mapToLong(TreeLayout.NodeView::bytes).sum());
    }
    boolean iam = mode.kind() == Mode.Kind.IAM;
    return new StoreTree(name, policy.settings().asStrings().get(EngineSettings.TREE.key()), iam ? mode.m() : 0, iam ? mode.k() : 0,
        layout.depth(), nodes, hfiles, bytes, files.writtenPerLevel(), files.hfileCount(), layout.unplaced().size(),
        backlog.pending(), backlog.flushMustWait(), backlog.levelOnePressure(), files.flushWaitNanos() / 1_000_000);
  }

  /** The store's settings, or the defaults (with an error logged) if they do not validate. */
  static EngineSettings settingsFor(Iterable<java.util.Map.Entry<String, String>> conf, String store) {
    try {
      return EngineSettings.parse(conf);
    } catch (InvalidOptionsException e) {
      LOG.error("store {}: {}; running with the defaults {}", store, e.getMessage(), EngineSettings.defaults());
      return EngineSettings.defaults();
    }
  }

  private static long blockCacheCapacity(HStore store) {
    return store.getCacheConfig() == null ? 0
        : store.getCacheConfig().getBlockCache().map(BlockCache::getMaxSize).orElse(0L);
  }

  /**
   * Archives the files earlier steps replaced, now rather than at HBase's next discharger run (every
   * two minutes). Every HFile HBase writes names, in its compaction-event metadata, the store's
   * compacted files not yet archived; a tree makes many small steps, so left to the discharger
   * that list grows to thousands and writing it dominated each step. Files a scan still reads are
   * skipped by HBase and archived later, and so are files whose step HBase has not finished with
   * ({@link IamStoreFileManager#getCompactedfiles}).
   */
  private void archiveCompactedFiles() {
    if (storeFileManager.getCompactedFilesCount() == 0) {
      return;
    }
    try {
      store.closeAndArchiveCompactedFiles();
    } catch (IOException e) {
      LOG.warn("store {}: could not archive compacted files now; HBase's discharger will", store, e);
    }
  }

  /**
   * The claims of the steps whose files are compacting; the whole tree if some compacting files
   * belong to no step of this engine (a store that was compacting before, or a host path that
   * bypassed {@link TreeStep}) or {@code iam.engine.max-running-steps} steps are running.
   */
  private List<Claim> claimsOf(Set<HStoreFile> filesCompacting) {
    List<Claim> claims = new ArrayList<>();
    Set<HStoreFile> covered = new HashSet<>();
    for (Map.Entry<TreeStep, Claim> e : running.entrySet()) {
      List<HStoreFile> inputs = e.getKey().plan.inputs();
      if (!Collections.disjoint(filesCompacting, inputs)) {
        claims.add(e.getValue());
        covered.addAll(inputs);
      }
    }
    if (!covered.containsAll(filesCompacting) || claims.size() >= maxRunningSteps) {
      return List.of(Claim.WHOLE);
    }
    return claims;
  }

  /**
   * Whether a step can start now: one the tree has, on nodes no running step holds. HBase runs
   * steps of one store side by side in its compaction pools (small and large), so a level-1 step
   * need not wait for a deep merge.
   */
  @Override
  public boolean needsCompaction(List<HStoreFile> filesCompacting) {
    if (filesCompacting.isEmpty()) {
      return storeFileManager.pendingWork();
    }
    if (!storeFileManager.pendingWork()) {
      return false;
    }
    return compactionPolicy.plan(storeFileManager.layout(), claimsOf(new HashSet<>(filesCompacting))).isPresent();
  }

  @Override
  public CompactionContext createCompaction() {
    return new TreeStep();
  }

  /** One tree step as an HBase compaction. */
  private final class TreeStep extends CompactionContext {
    private NodePlan<HStoreFile> plan;

    @Override
    public List<HStoreFile> preSelect(List<HStoreFile> filesCompacting) {
      List<HStoreFile> free = new ArrayList<>(storeFileManager.getStoreFiles());
      free.removeAll(filesCompacting);
      return free;
    }

    /** Called by HBase under the store's lock on its compacting files, so selections never overlap. */
    @Override
    public boolean select(List<HStoreFile> filesCompacting, boolean isUserCompaction, boolean mayUseOffPeak,
        boolean forceMajor) {
      Set<HStoreFile> compacting = new HashSet<>(filesCompacting);
      running.keySet().removeIf(step -> Collections.disjoint(compacting, step.plan.inputs())); // ended
      TreeLayout<HStoreFile> layout = storeFileManager.layout();
      plan = compactionPolicy.plan(layout, claimsOf(compacting)).orElse(null);
      if (plan != null && !Collections.disjoint(compacting, plan.inputs())) {
        LOG.error("store {}: tree step {} reads files a running step compacts; not started", store, plan);
        plan = null;
      }
      if (plan == null) {
        request = new CompactionRequestImpl(new ArrayList<>());
        return false;
      }
      running.put(this, compactionPolicy.planner().claim(layout, plan));
      request = new CompactionRequestImpl(plan.inputs());
      boolean allFiles = plan.inputs().size() == storeFileManager.hfileCount();
      request.setIsMajor(false, allFiles);
      LOG.debug("tree step {} ({}): {} files in, targets {}", plan.kind(), plan.mode(), plan.inputs().size(),
          plan.targets());
      return true;
    }

    /** A coprocessor chose the files: they are rewritten into one unplaced file, adopted later. */
    @Override
    public void forceSelect(CompactionRequestImpl forced) {
      super.forceSelect(forced);
      plan = new NodePlan<>("forced", List.copyOf(forced.getFiles()), List.of(Target.unplaced()),
          Math.max(1, storeFileManager.layout().depth()), null);
      running.put(this, Claim.WHOLE);
    }

    @Override
    public List<Path> compact(ThroughputController throughputController, User user) throws IOException {
      if (plan == null) {
        throw new IllegalStateException("compact without a selection");
      }
      storeFileManager.stepStarting();
      archiveCompactedFiles();
      return compactor.compact(request, plan, storeFileManager::nextStamp, throughputController, user);
    }
  }
}
