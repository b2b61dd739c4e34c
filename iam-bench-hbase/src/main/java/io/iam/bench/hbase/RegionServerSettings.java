package io.iam.bench.hbase;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.regionserver.throttle.CompactionThroughputControllerFactory;
import org.apache.hadoop.hbase.regionserver.throttle.NoLimitThroughputController;

/**
 * The mini cluster's region-server-wide settings that a store's options may ask for ({@link
 * HBaseOptions#COMPACTION_THROUGHPUT}, {@link HBaseOptions#BLOCKING_WAIT_MS}). One region server has
 * one value of each, so every store of one command must ask for the same.
 *
 * @param unlimitedCompactions {@code hbase.regionserver.throughput.controller} is {@code
 *     NoLimitThroughputController} instead of HBase's pressure-aware limit of 50 to 100 MB/s
 * @param blockingWaitMillis {@code hbase.hstore.blockingWaitTime}, the longest HBase holds a
 *     region's flushes for a store over {@code hbase.hstore.blockingStoreFiles}; 0 keeps HBase's 90 s
 */
record RegionServerSettings(boolean unlimitedCompactions, int blockingWaitMillis) {

  /** HBase's property for the longest flush hold, in milliseconds. */
  static final String BLOCKING_WAIT_KEY = "hbase.hstore.blockingWaitTime";
  /** HBase's default for {@value #BLOCKING_WAIT_KEY}. */
  static final int HBASE_BLOCKING_WAIT_MILLIS = 90_000;

  /** HBase's own settings. */
  static final RegionServerSettings HBASE = new RegionServerSettings(false, 0);

  /** Sets these settings in the region server's configuration. */
  void apply(Configuration conf) {
    if (unlimitedCompactions) {
      conf.set(CompactionThroughputControllerFactory.HBASE_THROUGHPUT_CONTROLLER_KEY,
          NoLimitThroughputController.class.getName());
    }
    if (blockingWaitMillis > 0) {
      conf.setInt(BLOCKING_WAIT_KEY, blockingWaitMillis);
    }
  }

  /** The store options that ask for these settings. */
  String asOptions() {
    return HBaseOptions.COMPACTION_THROUGHPUT + "=" + (unlimitedCompactions ? "unlimited" : "hbase") + " "
        + HBaseOptions.BLOCKING_WAIT_MS + "=" + (blockingWaitMillis > 0 ? blockingWaitMillis : "hbase");
  }
}
