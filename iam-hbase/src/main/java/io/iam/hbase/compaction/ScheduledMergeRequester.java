package io.iam.hbase.compaction;

import io.iam.core.policy.MergeSchedule;
import java.io.IOException;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks HBase to compact a store while its {@link MergeSchedule} holds merges that nobody will ask
 * for. HBase asks for a compaction after each memstore flush, and after a compaction only when the
 * store is at its blocking file count; so when a load stops, merges the policy decided while others
 * ran would otherwise wait for the next flush (HBase's own periodic check runs every 10,000 s by
 * default). Once a second, for each store whose region is open and whose schedule has a merge that
 * can run now, it asks for a compaction of the store (HBase selects it through the policy, so a
 * merge whose inputs are being merged is not started twice).
 *
 * <p>One daemon thread per JVM; stores are held weakly and dropped when their region closes.
 */
final class ScheduledMergeRequester {

  private static final Logger LOG = LoggerFactory.getLogger(ScheduledMergeRequester.class);
  private static final long PERIOD_MILLIS = 1_000;
  private static final ScheduledMergeRequester INSTANCE = new ScheduledMergeRequester();

  /** @GuardedBy("this") */
  private final Map<HStore, MergeSchedule> stores = new WeakHashMap<>();
  /** @GuardedBy("this") created with the first store */
  private ScheduledExecutorService timer;

  private ScheduledMergeRequester() {}

  static ScheduledMergeRequester get() {
    return INSTANCE;
  }

  /** Watches {@code store}, whose policy keeps {@code schedule}. */
  synchronized void watch(HStore store, MergeSchedule schedule) {
    stores.put(store, schedule);
    if (timer == null) {
      timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "iam-scheduled-merges");
        t.setDaemon(true);
        return t;
      });
      timer.scheduleWithFixedDelay(this::requestDue, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  private void requestDue() {
    Map<HStore, MergeSchedule> now;
    synchronized (this) {
      now = Map.copyOf(stores);
    }
    for (Map.Entry<HStore, MergeSchedule> e : now.entrySet()) {
      HStore store = e.getKey();
      HRegion region = store.getHRegion();
      if (region.isClosed()) {
        synchronized (this) {
          stores.remove(store);
        }
        continue;
      }
      if (region.isClosing() || !region.getTableDescriptor().isCompactionEnabled()
          || e.getValue().scheduled() == 0 || !store.needsCompaction()) {
        continue;
      }
      try {
        region.requestCompaction(store.getColumnFamilyDescriptor().getName(), "merges its policy scheduled",
            Store.NO_PRIORITY, false, CompactionLifeCycleTracker.DUMMY);
      } catch (IOException | RuntimeException ex) {
        LOG.warn("store {}: could not request the merges its policy scheduled", store, ex);
      }
    }
  }
}
