package io.iam.hbase.compaction;

import io.iam.core.util.DaemonThreads;
import java.io.IOException;
import java.util.Map;
import java.util.function.BooleanSupplier;
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
 * Asks HBase to compact a store that has work nobody will ask for. HBase asks for a compaction after
 * each memstore flush, at region open, and after a compaction only when the store is at its
 * blocking file count (its own periodic check runs every 10,000 s by default). So work decided
 * while other work ran (merges an IAM policy scheduled, a tree step that became due while a
 * region's reference files were compacted) would otherwise wait for the next flush, which may never
 * come once a load stops. Once a second, for each store whose region is open, whose owner says it
 * has work, and which HBase agrees needs a compaction ({@code HStore.needsCompaction()}, which asks
 * the store's policy or engine), it asks for a compaction of the store; HBase selects it through
 * the same policy, so work already running is not started twice.
 *
 * <p>One daemon thread per JVM; stores are held weakly and dropped when their region closes.
 */
public final class PendingWorkRequester {

  private static final Logger LOG = LoggerFactory.getLogger(PendingWorkRequester.class);
  private static final long PERIOD_MILLIS = 1_000;
  private static final PendingWorkRequester INSTANCE = new PendingWorkRequester();

  /** @GuardedBy("this") each store, and whether its owner has work for it */
  private final Map<HStore, BooleanSupplier> stores = new WeakHashMap<>();
  /** @GuardedBy("this") created with the first store */
  private ScheduledExecutorService timer;

  private PendingWorkRequester() {}

  /** The one requester of this JVM. */
  public static PendingWorkRequester get() {
    return INSTANCE;
  }

  /** Watches {@code store}, which has work while {@code hasWork} says so (it must be cheap). */
  public synchronized void watch(HStore store, BooleanSupplier hasWork) {
    stores.put(store, hasWork);
    if (timer == null) {
      timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("iam-pending-work-"));
      timer.scheduleWithFixedDelay(this::requestDue, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  private void requestDue() {
    Map<HStore, BooleanSupplier> now;
    synchronized (this) {
      now = Map.copyOf(stores);
    }
    for (Map.Entry<HStore, BooleanSupplier> e : now.entrySet()) {
      HStore store = e.getKey();
      HRegion region = store.getHRegion();
      if (region.isClosed()) {
        synchronized (this) {
          stores.remove(store);
        }
        continue;
      }
      if (region.isClosing() || !region.getTableDescriptor().isCompactionEnabled()
          || !e.getValue().getAsBoolean() || !store.needsCompaction()) {
        continue;
      }
      try {
        region.requestCompaction(store.getColumnFamilyDescriptor().getName(), "work its policy has pending",
            Store.NO_PRIORITY, false, CompactionLifeCycleTracker.DUMMY);
      } catch (IOException | RuntimeException ex) {
        LOG.warn("store {}: could not request the compaction of its pending work", store, ex);
      }
    }
  }
}
