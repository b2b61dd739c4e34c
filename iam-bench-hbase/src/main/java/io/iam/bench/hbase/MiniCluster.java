package io.iam.bench.hbase;

import io.iam.bench.load.LoadConfig;
import io.iam.bench.util.Dirs;
import io.iam.hbase.fs.NioLocalFileSystem;
import io.iam.hbase.master.IamConfigurationValidator;
import io.iam.hbase.metrics.StoreWriteObserver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.throttle.NoLimitThroughputController;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;

/**
 * The in-process HBase cluster of this JVM: ZooKeeper, a master and one region server, on the local
 * file system (no HDFS), in a temporary directory. IAM's jars are on its class path because it is
 * this JVM. One per JVM, shared by every store opened in it: the first {@link #acquire} starts it,
 * and it stays up when the last store releases it, so that stores opened one after another (the
 * stores of {@code iam load --vs}) run in the same cluster; {@link #stopIfUnused} or a shutdown hook
 * stops it and deletes its directory.
 *
 * <p>Installed as an operator would (docs/hbase.md): the master validates {@code iam.*} properties
 * ({@link IamConfigurationValidator}) and every region counts its flushed and compacted bytes ({@link
 * StoreWriteObserver}). The region server's block cache is the first store's {@link
 * LoadConfig#cacheBytes()} ({@code hfile.block.cache.memory.size}); a later store with another
 * budget shares it. The local file system is {@link NioLocalFileSystem}, which sets file permissions
 * without forking a process per file as Hadoop's does without its native library (HDFS forks
 * nothing). Table sanity checks are off, so a store may flush memstores under HBase's 1 MiB
 * minimum; there are no periodic major compactions, so a store's compactions are its policy's; and
 * the compaction checker runs every second. The region server keeps HBase's compaction throughput
 * limit and flush blocking wait unless the first store asks otherwise ({@link RegionServerSettings}).
 */
final class MiniCluster {

  /** {@code HBaseCommonTestingUtility.BASE_TEST_DIRECTORY_KEY}. */
  static final String BASE_DIRECTORY_PROPERTY = "test.build.data.basedirectory";

  private static HBaseTestingUtility util;
  private static Path root;
  private static int references;
  private static boolean hooked;
  private static RegionServerSettings server;

  private MiniCluster() {}

  /**
   * The running cluster's configuration, for a client {@code Connection}; starts the cluster with
   * {@code config}'s budgets if nobody holds it.
   */
  static synchronized Configuration acquire(LoadConfig config) throws IOException {
    return acquire(config, RegionServerSettings.HBASE);
  }

  /**
   * As {@link #acquire(LoadConfig)}; a cluster started here runs with {@code settings}.
   *
   * @throws IllegalArgumentException if the cluster runs with other settings
   */
  static synchronized Configuration acquire(LoadConfig config, RegionServerSettings settings)
      throws IOException {
    if (util == null) {
      start(config, settings);
    } else if (!server.equals(settings)) {
      throw new IllegalArgumentException(settings.asOptions() + ": this JVM's mini cluster already runs with "
          + server.asOptions() + "; one region server has one value of each, so give every store of the"
          + " command the same");
    }
    references++;
    return util.getConfiguration();
  }

  /** Drops one reference; the cluster stays up for the next store (see {@link #stopIfUnused}). */
  static synchronized void release() {
    if (references == 0) {
      throw new IllegalStateException("the mini cluster was released more often than acquired");
    }
    references--;
  }

  /** Stops the cluster and deletes its directory if no store holds it. */
  static synchronized void stopIfUnused() throws IOException {
    if (references == 0) {
      stop();
    }
  }

  /** Whether the cluster runs now. */
  static synchronized boolean running() {
    return util != null;
  }

  /**
   * The region server's compaction throughput limit, read from its running controller ({@code
   * "unlimited"} or HBase's pressure-aware limit), and its longest flush hold.
   */
  static synchronized String compactionLimit() {
    if (util == null) {
      throw new IllegalStateException("the mini cluster is not running");
    }
    ThroughputController c = util.getMiniHBaseCluster().getRegionServer(0).getCompactSplitThread()
        .getCompactionThroughputController();
    return (c instanceof NoLimitThroughputController ? "unlimited"
        : "limited by HBase's " + c.getClass().getSimpleName()) + ", flush holds of at most "
        + util.getConfiguration().getInt(RegionServerSettings.BLOCKING_WAIT_KEY,
            RegionServerSettings.HBASE_BLOCKING_WAIT_MILLIS) + " ms";
  }

  /** The regions of {@code table} on the cluster's region servers (one, unless it split). */
  static synchronized List<HRegion> regions(TableName table) {
    if (util == null) {
      throw new IllegalStateException("the mini cluster is not running");
    }
    return util.getMiniHBaseCluster().getRegions(table);
  }

  /**
   * HBase's {@code updatesBlockedTime} summed over the region servers: how long updates waited for
   * the global memstore to fall below its high-water mark; 0 when the mini cluster is not running.
   */
  static synchronized long updatesBlockedMillis() {
    if (util == null) {
      return 0;
    }
    return util.getMiniHBaseCluster().getLiveRegionServerThreads().stream()
        .map(t -> t.getRegionServer().getMemStoreFlusher())
        .filter(java.util.Objects::nonNull)
        .mapToLong(f -> f.getUpdatesBlockedMsHighWater().sum()).sum();
  }

  /**
   * Compactions queued on the region servers and not yet started: HBase queues the compaction a flush
   * asks for and selects its files only when a thread takes it, so until then the region reports no
   * compaction.
   */
  static synchronized int queuedCompactions() {
    if (util == null) {
      throw new IllegalStateException("the mini cluster is not running");
    }
    return util.getMiniHBaseCluster().getLiveRegionServerThreads().stream()
        .mapToInt(t -> t.getRegionServer().getCompactSplitThread().getCompactionQueueSize()).sum();
  }

  private static void start(LoadConfig config, RegionServerSettings settings) throws IOException {
    Path dir = Files.createTempDirectory("iam-hbase-mini-");
    // The testing utility keeps its data (and so the cluster's root directory) under this base, by
    // default ./target/test-data of the working directory.
    System.setProperty(BASE_DIRECTORY_PROPERTY, dir.toString());
    HBaseTestingUtility u = new HBaseTestingUtility();
    Configuration conf = u.getConfiguration();
    conf.setInt("hbase.master.info.port", -1);
    // The region server's info server, on a free port of the loopback interface: its /jmx is how
    // an operator (and iam hbase-trees) reads the stores' trees, as on a real cluster.
    conf.setInt("hbase.regionserver.info.port", 0);
    conf.set("hbase.regionserver.info.bindAddress", "127.0.0.1");
    conf.set("hbase.coprocessor.master.classes", IamConfigurationValidator.class.getName());
    conf.set("hbase.coprocessor.region.classes", StoreWriteObserver.class.getName());
    conf.setBoolean("hbase.table.sanity.checks", false);
    conf.setLong(HConstants.MAJOR_COMPACTION_PERIOD, 0);
    // A store whose policy wants a merge that no flush asked for (its decision came while another
    // compaction ran) is compacted by the region server's checker: every second here rather than
    // every 10 s, so a settle finds that merge within its 2 s quiet period.
    conf.setInt("hbase.regionserver.compaction.check.period", 1_000);
    conf.setLong(HConstants.HFILE_BLOCK_CACHE_MEMORY_SIZE_KEY, config.cacheBytes());
    conf.setInt("hbase.regionserver.thread.compaction.small", config.backgroundThreads());
    conf.setInt("hbase.regionserver.thread.compaction.large", config.backgroundThreads());
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    // Without Hadoop's native library the local file system forks chmod for every file it creates.
    conf.set("fs.file.impl", NioLocalFileSystem.class.getName());
    // HBase's default CRC32C runs in Hadoop 2.10's pure-Java code here (no native library), 40% of
    // the compaction threads' time; a cluster on Hadoop 3 or with native libraries uses the CPU's
    // instruction. CRC32 runs on the JVM's intrinsic, for every engine alike.
    conf.set("hbase.hstore.checksum.algorithm", "CRC32");
    settings.apply(conf);
    server = settings;
    try {
      u.startMiniZKCluster();
      u.startMiniHBaseCluster(StartMiniClusterOption.builder().numRegionServers(1).build());
    } catch (Exception e) {
      try {
        u.shutdownMiniCluster();
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      }
      Dirs.deleteTree(dir);
      throw e instanceof IOException io ? io : new IOException("cannot start the HBase mini cluster: " + e, e);
    }
    util = u;
    root = dir;
    if (!hooked) {
      hooked = true;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        synchronized (MiniCluster.class) {
          try {
            stop();
          } catch (IOException | RuntimeException e) {
            System.err.println("iam-bench-hbase: stopping the mini cluster at exit: " + e);
          }
        }
      }, "iam-hbase-mini-cluster-stop"));
    }
  }

  private static void stop() throws IOException {
    if (util == null) {
      return;
    }
    HBaseTestingUtility u = util;
    Path dir = root;
    util = null;
    root = null;
    references = 0;
    try {
      u.shutdownMiniCluster();
    } finally {
      if (dir != null) {
        Dirs.deleteTree(dir);
      }
    }
  }
}
