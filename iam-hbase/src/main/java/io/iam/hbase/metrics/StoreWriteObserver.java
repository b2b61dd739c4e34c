package io.iam.hbase.metrics;

import io.iam.hbase.engine.IamStoreFileManager;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.metrics.MetricRegistry;
import org.apache.hadoop.hbase.regionserver.FlushLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.StoreFile;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;

/**
 * Counts the bytes each store writes, so HBase's own write amplification can be computed per
 * policy: every flushed file and every compaction output (HBase calls {@code postCompact} once per
 * output file), exactly, from the files themselves. Install it with {@code
 * hbase.coprocessor.region.classes=io.iam.hbase.metrics.StoreWriteObserver}.
 *
 * <p>The counters go to {@link StoreWriteStats} (in-process) and to the region server's coprocessor
 * metric registry, which HBase exports over JMX as {@code iam.<table>.<family>.flushedBytes},
 * {@code .compactedBytes} and {@code .storeFiles} (summed over the server's regions of that table).
 */
public class StoreWriteObserver implements RegionCoprocessor, RegionObserver {

  private MetricRegistry registry;

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void start(CoprocessorEnvironment env) {
    if (env instanceof RegionCoprocessorEnvironment region) {
      registry = region.getMetricRegistryForRegionServer();
    }
  }

  @Override
  public InternalScanner preFlush(ObserverContext<RegionCoprocessorEnvironment> ctx, Store store,
      InternalScanner scanner, FlushLifeCycleTracker tracker) {
    StoreWriteStats.of(id(ctx, store)).memstoreFlushed();
    return scanner;
  }

  @Override
  public void postFlush(ObserverContext<RegionCoprocessorEnvironment> ctx, Store store,
      StoreFile resultFile, FlushLifeCycleTracker tracker) throws IOException {
    if (resultFile == null) {
      return;
    }
    long bytes = length(resultFile);
    StoreWriteStats.of(id(ctx, store)).flushed(bytes, level(resultFile), store.getStorefiles().size(),
        System.currentTimeMillis());
    count(ctx, store, "flushedBytes", bytes);
  }

  @Override
  public void postCompact(ObserverContext<RegionCoprocessorEnvironment> ctx, Store store,
      StoreFile resultFile, CompactionLifeCycleTracker tracker, CompactionRequest request)
      throws IOException {
    if (resultFile == null) {
      return;
    }
    long bytes = length(resultFile);
    StoreWriteStats.of(id(ctx, store)).compacted(bytes, level(resultFile), store.getStorefiles().size(),
        System.currentTimeMillis());
    count(ctx, store, "compactedBytes", bytes);
  }

  private void count(ObserverContext<RegionCoprocessorEnvironment> ctx, Store store, String what,
      long bytes) {
    if (registry == null) {
      return;
    }
    String prefix = "iam." + ctx.getEnvironment().getRegionInfo().getTable().getNameAsString() + "."
        + store.getColumnFamilyName() + ".";
    registry.counter(prefix + what).increment(bytes);
    registry.histogram(prefix + "storeFiles").update(store.getStorefiles().size());
  }

  private static StoreWriteStats.StoreId id(ObserverContext<RegionCoprocessorEnvironment> ctx,
      Store store) {
    return new StoreWriteStats.StoreId(
        ctx.getEnvironment().getRegionInfo().getTable().getNameAsString(),
        ctx.getEnvironment().getRegionInfo().getEncodedName(),
        store.getColumnFamilyName());
  }

  /** The tree level IAM's store engine tagged the file with; 0 for a file without a tag. */
  private static int level(StoreFile file) {
    return file instanceof HStoreFile h && h.getReader() != null ? IamStoreFileManager.levelOf(h) : 0;
  }

  private static long length(StoreFile file) throws IOException {
    if (file instanceof HStoreFile h && h.getReader() != null) {
      return h.getReader().length();
    }
    return file.getPath().getFileSystem(new org.apache.hadoop.conf.Configuration())
        .getFileStatus(file.getPath()).getLen();
  }
}
