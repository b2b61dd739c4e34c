package io.iam.hbase.compaction;

import io.iam.core.policy.MergeSchedule;
import io.iam.core.policy.MergePlan;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.StoredComponent;
import io.iam.hbase.config.CompactionSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreConfigInformation;
import org.apache.hadoop.hbase.regionserver.StoreUtils;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequestImpl;
import org.apache.hadoop.hbase.regionserver.compactions.RatioBasedCompactionPolicy;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one of iam-core's stack policies (Constant, Bigtable, Exploring, MinLatency, Binomial,
 * IAM stack, Prefix, size-tiered) inside HBase's default store engine. Install it with
 * {@code hbase.hstore.defaultengine.compactionpolicy.class=io.iam.hbase.compaction.IamCompactionPolicy}
 * and choose the policy with {@code iam.compaction.policy} (see {@link CompactionSettings}); both
 * can be set cluster-wide, per table or per column family.
 *
 * <p>It extends {@link RatioBasedCompactionPolicy} because the default store engine casts its
 * policy to that class. It only translates: the store files go to a per-store {@link
 * MergeSchedule}, which has the kernel policy decide once after every flush, on the stack the cost
 * model has (merges it decided before counted as done), and keeps the merges it decided until HBase
 * runs them; each becomes a {@link CompactionRequestImpl} over the same contiguous files. So HBase
 * runs the merges the model makes for the same flushes, even when flushes land while it merges.
 * HBase's own rules stay HBase's:
 *
 * <ul>
 *   <li>major compactions (user-requested, periodic) and the compaction of reference files after a
 *       region split are selected by HBase's ratio-based logic, as they would be without us;
 *   <li>a minor compaction that takes every file of the store drops delete markers, as in HBase;
 *   <li>files already compacting are never selected: a scheduled merge waits until its inputs are
 *       written and free, and two disjoint merges may run at once (HBase's short and long
 *       compaction threads);
 *   <li>when the store has as many files as {@code hbase.hstore.blockingStoreFiles} and the policy
 *       wants nothing, HBase's ratio-based selection runs, so writes are never blocked by us.
 * </ul>
 *
 * <p>A configuration that does not validate never takes the store down: the error is logged with
 * the property names, and the store keeps HBase's ratio-based selection until it is fixed. The
 * master-side {@code IamConfigurationValidator} refuses such a table or column family before it
 * gets here.
 */
public class IamCompactionPolicy extends RatioBasedCompactionPolicy {

  private static final Logger LOG = LoggerFactory.getLogger(IamCompactionPolicy.class);

  /** The kernel policy, or null when the configuration was invalid. */
  private final MergePolicy policy;
  private final MergeSchedule schedule;
  private final String storeName;

  public IamCompactionPolicy(Configuration conf, StoreConfigInformation store) {
    super(conf, store);
    this.storeName = store == null ? "?"
        : store.getRegionInfo().getEncodedName() + "/" + store.getColumnFamilyName();
    MergePolicy chosen = null;
    try {
      CompactionSettings settings = CompactionSettings.parse(conf);
      chosen = settings.policy();
      if (!settings.ignoredKeys().isEmpty()) {
        LOG.info("Store {} runs {}; these properties belong to other policies and are ignored: {}",
            storeName, chosen.name(), settings.ignoredKeys());
      }
      long blocking = store == null ? Long.MAX_VALUE : store.getBlockingFileCount();
      blockingWarning(chosen, blocking).ifPresent(w -> LOG.warn("Store {}: {}", storeName, w));
      if (store != null) {
        ThroughputCheck.note(chosen, conf, comConf.getMinFilesToCompact(), blocking)
            .ifPresent(n -> ThroughputCheck.logOnce(LOG, storeName, n));
      }
    } catch (IllegalArgumentException e) {
      LOG.error("Store {}: invalid compaction configuration, keeping HBase's ratio-based selection"
          + " until it is fixed: {}", storeName, e.getMessage());
    }
    this.policy = chosen;
    this.schedule = new MergeSchedule(store == null ? 128L << 20 : store.getMemStoreFlushSize());
    if (chosen != null && store instanceof HStore hstore) {
      PendingWorkRequester.get().watch(hstore, () -> schedule.scheduled() > 0);
    }
  }

  /**
   * The warning an operator needs when {@code hbase.hstore.blockingStoreFiles} is too low for a
   * depth-bounded policy: a store holds up to k + 1 files between a flush and the merge that
   * follows it, and HBase blocks writes at the blocking count, so it must be at least k + 2.
   */
  public static Optional<String> blockingWarning(MergePolicy policy, long blockingStoreFiles) {
    int k = policy.maxComponents();
    if (k == Integer.MAX_VALUE || blockingStoreFiles >= k + 2L) {
      return Optional.empty();
    }
    return Optional.of("hbase.hstore.blockingStoreFiles=" + blockingStoreFiles + " is too low for "
        + policy.name() + " with k=" + k + ": a store holds up to k+1 files between a flush and its"
        + " merge, so writes would block; set it to at least " + (k + 2));
  }

  /** The merges this store's policy decided and HBase has not run yet, and how it got there. */
  public MergeSchedule schedule() {
    return schedule;
  }

  /** The kernel policy this store runs, or null if its configuration was invalid. */
  public MergePolicy kernelPolicy() {
    return policy;
  }

  @Override
  public CompactionRequestImpl selectCompaction(Collection<HStoreFile> candidateFiles,
      List<HStoreFile> filesCompacting, boolean isUserCompaction, boolean mayUseOffPeak,
      boolean forceMajor) throws IOException {
    if (policy == null || forceMajor || StoreUtils.hasReferences(candidateFiles)
        || (filesCompacting.isEmpty() && shouldPerformMajorCompaction(candidateFiles))) {
      return super.selectCompaction(
          candidateFiles, filesCompacting, isUserCompaction, mayUseOffPeak, forceMajor);
    }
    List<HStoreFile> files = new ArrayList<>(candidateFiles);
    List<StoredComponent> views = views(files, filesCompacting);
    MergePlan plan = schedule.next(policy, views);
    if (plan.isNone() && isUserCompaction) {
      plan = schedule.decideNow(policy, views);
    }
    if (plan.isNone()) {
      boolean stuck = files.size() - filesCompacting.size() + (filesCompacting.isEmpty() ? 0 : 1)
          >= storeConfigInfo.getBlockingFileCount();
      if (stuck && filesCompacting.isEmpty()) {
        LOG.info("Store {} reached {} files and {} wants nothing: using HBase's selection so"
            + " writes do not block", storeName, files.size(), policy.name());
        return super.selectCompaction(
            candidateFiles, filesCompacting, isUserCompaction, mayUseOffPeak, false);
      }
      return new CompactionRequestImpl(List.of());
    }
    List<HStoreFile> selected = new ArrayList<>(files.subList(plan.from(), plan.to() + 1));
    CompactionRequestImpl request = new CompactionRequestImpl(selected);
    request.setOffPeak(false);
    // Taking every file of the store lets the compaction drop delete markers, as HBase does.
    request.setIsMajor(false, selected.size() == files.size());
    LOG.debug("Store {}: {} chose {} of {} files; {} more merges scheduled, {} decisions, {} restarts ({})",
        storeName, policy.name(), plan, files.size(), schedule.scheduled() - 1, schedule.decisions(),
        schedule.restarts(), schedule.lastRestart());
    return request;
  }

  @Override
  public boolean needsCompaction(Collection<HStoreFile> storeFiles,
      List<HStoreFile> filesCompacting) {
    if (policy == null) {
      return super.needsCompaction(storeFiles, filesCompacting);
    }
    List<HStoreFile> files = new ArrayList<>(storeFiles);
    return !schedule.next(policy, views(files, filesCompacting)).isNone();
  }

  private static List<StoredComponent> views(List<HStoreFile> files, List<HStoreFile> compacting) {
    List<StoredComponent> views = new ArrayList<>(files.size());
    for (HStoreFile f : files) {
      views.add(new StoredComponent(f.getPath().getName(), f.getReader().length(),
          compactedFrom(f), compacting.contains(f)));
    }
    return views;
  }

  private static Set<String> compactedFrom(HStoreFile f) {
    byte[] event = f.getMetadataValue(HStoreFile.COMPACTION_EVENT_KEY);
    if (event == null) {
      return Set.of();
    }
    try {
      return ProtobufUtil.toCompactedStoreFiles(event);
    } catch (IOException e) {
      LOG.warn("Unreadable compaction event in {}; counting it as unknown", f.getPath(), e);
      return Set.of();
    }
  }
}
