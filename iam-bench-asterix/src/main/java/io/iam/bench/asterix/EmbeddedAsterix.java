package io.iam.bench.asterix;

import io.iam.bench.util.Dirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.asterix.api.common.AsterixHyracksIntegrationUtil;
import org.apache.asterix.common.api.INcApplicationContext;
import org.apache.hyracks.api.application.ICCApplication;
import org.apache.hyracks.api.application.INCApplication;
import org.apache.hyracks.control.common.config.ConfigManager;
import org.apache.hyracks.control.common.controllers.CCConfig;
import org.apache.hyracks.control.common.controllers.NCConfig;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;

/**
 * One AsterixDB 0.9.8 cluster controller and one node controller in this JVM, shared by every
 * {@code asterixdb} store the JVM has open: started by the first {@link #acquire}, stopped (its
 * files deleted) by the last {@link #release}, or at the latest when the JVM exits. It runs IAM's
 * applications as a cluster would: {@link EmbeddedCCApplication} and, on the NC, {@link
 * CountingNCApplication} (IAM's CC and NC applications, which register our policies, plus the flush
 * and merge counter).
 *
 * <p>Every listener binds 127.0.0.1: the IPC, data, result and messaging ports by their {@code
 * *.listen.address}, the HTTP servers and RMI by {@link LoopbackOnly}.
 *
 * <p>Its {@code cc.conf} is written into a fresh temporary directory, which also holds its storage,
 * transaction log and logs. Every port is a free one picked at start, so it never meets another
 * AsterixDB on the machine. The budgets of the first store opened decide (later ones share the
 * instance): {@code storage.memorycomponent.globalbudget} = the memtable size (at least 4 MiB, since
 * AsterixDB splits the budget into pages over the open datasets' memory components) and {@code
 * storage.buffercache.size} = the cache size (at least 8 MiB); 32 KiB pages unless the first
 * acquire names another page size.
 */
final class EmbeddedAsterix {

  /** The smallest global memory-component budget used; AsterixDB needs a few pages per dataset. */
  static final long MIN_MEMORY_BUDGET = 4L << 20;
  /** The smallest buffer cache used. */
  static final long MIN_BUFFER_CACHE = 8L << 20;
  /** {@code storage.buffercache.pagesize} unless the first acquire names another. */
  static final long DEFAULT_PAGE_BYTES = 32L << 10;
  private static final String NC = "asterix_nc1";

  static {
    // AsterixDB logs a great deal at INFO, to stdout; our output is on stdout. Unless the user chose
    // a configuration, warnings and errors go to stderr (set before AsterixDB's classes load).
    if (System.getProperty("log4j2.configurationFile") == null && System.getProperty("log4j.configurationFile") == null) {
      System.setProperty("log4j2.configurationFile", "iam-bench-asterix-log4j2.xml");
    }
  }

  private static EmbeddedAsterix instance;
  private static int references;

  private final Path home;
  private final Util util;
  private final String apiUrl;
  private final String ncApiUrl;
  private final long memoryBudget;
  private final long bufferCache;
  private final long pageBytes;
  private boolean stopped;

  private EmbeddedAsterix(Path home, Util util, String apiUrl, String ncApiUrl, long memoryBudget, long bufferCache,
      long pageBytes) {
    this.home = home;
    this.util = util;
    this.apiUrl = apiUrl;
    this.ncApiUrl = ncApiUrl;
    this.memoryBudget = memoryBudget;
    this.bufferCache = bufferCache;
    this.pageBytes = pageBytes;
  }

  /**
   * The JVM's instance with one more reference, started with these budgets if it is not running.
   * Each acquire is paired with one {@link #release}.
   */
  static synchronized EmbeddedAsterix acquire(long memtableBytes, long cacheBytes) throws IOException {
    return acquire(memtableBytes, cacheBytes, instance == null ? DEFAULT_PAGE_BYTES : instance.pageBytes);
  }

  /**
   * As {@link #acquire(long, long)}, with pages of {@code pageBytes} (a power of two).
   *
   * @throws IllegalStateException if the instance runs already with another page size
   */
  static synchronized EmbeddedAsterix acquire(long memtableBytes, long cacheBytes, long pageBytes) throws IOException {
    if (instance == null) {
      instance = start(Math.max(MIN_MEMORY_BUDGET, memtableBytes), Math.max(MIN_BUFFER_CACHE, cacheBytes), pageBytes);
    } else if (instance.pageBytes != pageBytes) {
      throw new IllegalStateException("asterixdb: the embedded instance runs with pages of " + instance.pageBytes
          + " bytes, not " + pageBytes + " (one page size per JVM)");
    }
    references++;
    return instance;
  }

  /** Drops one reference; the last one stops the cluster and deletes its files. */
  static synchronized void release() {
    if (references == 0) {
      throw new IllegalStateException("embedded asterixdb released more often than acquired");
    }
    if (--references == 0) {
      EmbeddedAsterix a = instance;
      instance = null;
      a.stop();
    }
  }

  private static EmbeddedAsterix start(long memoryBudget, long bufferCache, long pageBytes) throws IOException {
    if (Long.bitCount(pageBytes) != 1 || pageBytes < 4096) {
      throw new IllegalArgumentException("asterixdb: a page of " + pageBytes + " bytes: must be a power of two of 4096 or more");
    }
    Path home = Files.createTempDirectory("iam-asterixdb-");
    int api = freePort();
    int ncApi = freePort();
    int client = freePort();
    int cluster = freePort();
    String conf = String.join("\n",
        "; Written by iam-bench-asterix for an embedded CC and NC; deleted when the JVM exits.",
        "[nc/" + NC + "]",
        "txn.log.dir=" + home.resolve(NC).resolve("txnlog"),
        "core.dump.dir=" + home.resolve(NC).resolve("coredump"),
        "iodevices=iodevice1",
        "nc.api.port=" + ncApi,
        "",
        "[nc]",
        "address=127.0.0.1",
        "cluster.listen.address=127.0.0.1",
        "data.listen.address=127.0.0.1",
        "result.listen.address=127.0.0.1",
        "messaging.listen.address=127.0.0.1",
        "replication.listen.address=127.0.0.1",
        "command=asterixnc",
        "app.class=" + CountingNCApplication.class.getName(),
        "storage.buffercache.pagesize=" + pageBytes,
        "storage.buffercache.size=" + bufferCache,
        "storage.memorycomponent.globalbudget=" + memoryBudget,
        "",
        "[cc]",
        "address=127.0.0.1",
        "cluster.listen.address=127.0.0.1",
        "client.listen.address=127.0.0.1",
        "console.listen.address=127.0.0.1",
        "app.class=" + EmbeddedCCApplication.class.getName(),
        "api.port=" + api,
        "web.port=" + freePort(),
        "web.queryinterface.port=" + freePort(),
        "active.port=" + freePort(),
        "console.listen.port=" + freePort(),
        "heartbeat.period=2000",
        "heartbeat.max.misses=25",
        "",
        "[common]",
        "log.dir=" + home.resolve("logs"),
        "log.level=ERROR",
        "compiler.framesize=32KB",
        "compiler.sortmemory=320KB",
        "compiler.groupmemory=160KB",
        "compiler.joinmemory=256KB",
        "compiler.textsearchmemory=160KB",
        "compiler.windowmemory=192KB",
        "messaging.frame.size=4096",
        "messaging.frame.count=512",
        "");
    Path confFile = home.resolve("cc.conf");
    Files.writeString(confFile, conf);
    AsterixHyracksIntegrationUtil.setStoragePath(home.resolve("io").toString());
    if (!LoopbackOnly.rmiOnLoopback()) {
      System.err.println("asterixdb: this JVM's RMI socket factory was set before; RMI may listen beyond loopback");
    }
    Util util = new Util(client, cluster);
    try {
      util.init(true, confFile.toString());
      LoopbackOnly.rebindConsole(util.cc);
    } catch (Exception e) {
      deleteQuietly(home);
      throw new IOException("asterixdb: the embedded cluster did not start: " + e, e);
    }
    EmbeddedAsterix a = new EmbeddedAsterix(home, util, "http://127.0.0.1:" + api, "http://127.0.0.1:" + ncApi,
        memoryBudget, bufferCache, pageBytes);
    Runtime.getRuntime().addShutdownHook(new Thread(a::stop, "iam-asterixdb-stop"));
    return a;
  }

  private synchronized void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    try {
      util.deinit(true);
    } catch (Exception e) {
      System.err.println("asterixdb: stopping the embedded cluster failed: " + e);
    } finally {
      deleteQuietly(home);
    }
  }

  /** The CC's HTTP API, {@code http://127.0.0.1:PORT}. */
  String apiUrl() {
    return apiUrl;
  }

  /** The NC's HTTP API (its {@code nc.api.port}). */
  String ncApiUrl() {
    return ncApiUrl;
  }

  long memoryBudget() {
    return memoryBudget;
  }

  long bufferCache() {
    return bufferCache;
  }

  long pageBytes() {
    return pageBytes;
  }

  /** Where the cluster keeps its configuration and files. */
  Path home() {
    return home;
  }

  private INcApplicationContext nc() {
    return (INcApplicationContext) util.ncs[0].getApplicationContext();
  }

  /** The open LSM indexes of a dataset (their identifier holds {@code /dataverse/dataset/}). */
  List<ILSMIndex> openIndexes(String dataverse, String dataset) {
    String part = "/" + dataverse + "/" + dataset + "/";
    return nc().getDatasetLifecycleManager().getOpenResources().stream()
        .filter(ILSMIndex.class::isInstance).map(ILSMIndex.class::cast)
        .filter(i -> ("/" + i.getIndexIdentifier()).contains(part)).toList();
  }

  /** Asks the NC to flush the memory components of one dataset, by its {@code DatasetId}, and waits. */
  void flush(int datasetId) throws IOException {
    nc().getDatasetLifecycleManager().flushDataset(datasetId, false);
  }

  /** Asks the NC to flush the memory components of every dataset. */
  void flushAll() throws IOException {
    nc().getDatasetLifecycleManager().flushAllDatasets();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void deleteQuietly(Path dir) {
    try {
      Dirs.deleteTree(dir);
    } catch (IOException | UncheckedIOException e) {
      System.err.println("asterixdb: could not delete " + dir + ": " + e.getMessage());
    }
  }

  /** AsterixDB's integration util with the applications of the configuration and free CC ports. */
  private static final class Util extends AsterixHyracksIntegrationUtil {
    private final int clientPort;
    private final int clusterPort;

    Util(int clientPort, int clusterPort) {
      this.clientPort = clientPort;
      this.clusterPort = clusterPort;
    }

    @Override
    protected CCConfig createCCConfig(ConfigManager configManager) throws IOException {
      CCConfig config = super.createCCConfig(configManager);
      config.setClientListenPort(clientPort);
      config.setClusterListenPort(clusterPort);
      return config;
    }

    @Override
    protected NCConfig createNCConfig(String ncName, ConfigManager configManager) {
      NCConfig config = super.createNCConfig(ncName, configManager);
      config.setClusterPort(clusterPort);
      return config;
    }

    @Override
    protected ICCApplication createCCApplication() {
      return new EmbeddedCCApplication();
    }

    @Override
    protected INCApplication createNCApplication() {
      return new CountingNCApplication();
    }
  }
}
