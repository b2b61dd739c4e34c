package io.iam.bench.asterix;

import io.iam.bench.util.Dirs;
import io.iam.core.util.DaemonThreads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.asterix.api.common.AsterixHyracksIntegrationUtil;
import org.apache.asterix.common.api.INcApplicationContext;
import org.apache.hyracks.api.application.ICCApplication;
import org.apache.hyracks.api.application.INCApplication;
import org.apache.hyracks.control.common.config.ConfigManager;
import org.apache.hyracks.control.common.controllers.CCConfig;
import org.apache.hyracks.control.common.controllers.NCConfig;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;

/**
 * One AsterixDB 0.9.8 cluster controller and one or more node controllers in this JVM, shared by
 * every {@code asterixdb} store the JVM has open: started by the first {@link #acquire}, stopped by
 * the last {@link #release}, or at the latest when the JVM exits. It runs IAM's applications as a
 * cluster would: {@link EmbeddedCCApplication} and, on each NC, {@link CountingNCApplication}
 * (IAM's CC and NC applications, which register our policies, plus the flush and merge counter).
 * Each NC has one IO device, so one storage partition: a dataset's records are hash-partitioned
 * over the NCs, and each partition's indexes run the dataset's merge policy on their own.
 *
 * <p>Every listener binds 127.0.0.1: the IPC, data, result and messaging ports by their {@code
 * *.listen.address}, the HTTP servers and RMI by {@link LoopbackOnly}.
 *
 * <p>Its {@code cc.conf} is written into its home, which also holds its storage, transaction logs and
 * logs: by default a fresh temporary directory, deleted when the instance stops; or a directory the
 * first acquire names, which is kept, and whose storage and logs a later start in the same home
 * opens again (AsterixDB's own recovery replays the transaction log). Every port is a free one picked at start, so it never meets another
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
  /** How long a start may take before it is tried again on other ports, and how many times. */
  private static final long START_SECONDS = 120;
  private static final int START_ATTEMPTS = 3;
  /** Where {@link #freePort} looks: 20000 to 32767. */
  private static final int FIRST_PORT = 20_000;
  private static final int PORT_COUNT = 12_768;
  private static final java.util.SplittableRandom PORTS = new java.util.SplittableRandom();
  private static final java.util.Set<Integer> GIVEN_PORTS = new java.util.HashSet<>();

  /** The most node controllers an instance runs. */
  static final int MAX_NODES = 4;

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
  /** Whether {@link #home} is the caller's, kept when the instance stops. */
  private final boolean keepHome;
  private final Util util;
  private final String apiUrl;
  /** Each NC's HTTP API, by node name, in node order. */
  private final Map<String, String> ncApiUrls;
  private final long memoryBudget;
  private final long bufferCache;
  private final long pageBytes;
  private boolean stopped;

  private EmbeddedAsterix(Path home, boolean keepHome, Util util, String apiUrl, Map<String, String> ncApiUrls,
      long memoryBudget, long bufferCache, long pageBytes) {
    this.home = home;
    this.keepHome = keepHome;
    this.util = util;
    this.apiUrl = apiUrl;
    this.ncApiUrls = ncApiUrls;
    this.memoryBudget = memoryBudget;
    this.bufferCache = bufferCache;
    this.pageBytes = pageBytes;
  }

  /**
   * The JVM's instance with one more reference, started with these budgets if it is not running
   * (the running instance's page size, node controllers and home otherwise: the defaults). Each
   * acquire is paired with one {@link #release}.
   */
  static synchronized EmbeddedAsterix acquire(long memtableBytes, long cacheBytes) throws IOException {
    return acquire(memtableBytes, cacheBytes, 0, 0, null);
  }

  /** As {@link #acquire(long, long)}, with pages of {@code pageBytes} (a power of two). */
  static synchronized EmbeddedAsterix acquire(long memtableBytes, long cacheBytes, long pageBytes) throws IOException {
    return acquire(memtableBytes, cacheBytes, pageBytes, 0, null);
  }

  /**
   * As {@link #acquire(long, long)}, with what else the instance is started with.
   *
   * @param pageBytes its pages (a power of two of 4096 or more); 0 for the running instance's, or
   *     {@link #DEFAULT_PAGE_BYTES}
   * @param nodes its node controllers, 1 to {@link #MAX_NODES}; 0 for the running instance's, or 1
   * @param home where it keeps its files, kept when it stops and opened again by a later start in
   *     the same home; null for the running instance's, or a fresh temporary directory
   * @throws IllegalStateException if the instance runs already, with another page size, node count
   *     or home than one given
   */
  static synchronized EmbeddedAsterix acquire(long memtableBytes, long cacheBytes, long pageBytes, int nodes,
      Path home) throws IOException {
    if (nodes < 0 || nodes > MAX_NODES) {
      throw new IllegalArgumentException("asterixdb: " + nodes + " node controllers: allowed 1 to " + MAX_NODES);
    }
    if (instance == null) {
      instance = start(Math.max(MIN_MEMORY_BUDGET, memtableBytes), Math.max(MIN_BUFFER_CACHE, cacheBytes),
          pageBytes == 0 ? DEFAULT_PAGE_BYTES : pageBytes, nodes == 0 ? 1 : nodes, home);
    } else {
      mustMatch("pages of", pageBytes == 0 ? null : pageBytes + " bytes", instance.pageBytes + " bytes");
      mustMatch("node controllers:", nodes == 0 ? null : Integer.toString(nodes), Integer.toString(instance.nodes().size()));
      mustMatch("its home in", home == null ? null : home.toAbsolutePath().normalize().toString(),
          instance.keepHome ? instance.home.toString() : "a temporary directory");
    }
    references++;
    return instance;
  }

  private static void mustMatch(String what, String asked, String running) {
    if (asked != null && !asked.equals(running)) {
      throw new IllegalStateException("asterixdb: the embedded instance runs with " + what + " " + running + ", not "
          + asked + " (one embedded instance per JVM)");
    }
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

  /**
   * Starts the cluster, trying again with other ports if it does not become active in {@link
   * #START_SECONDS}: a port found free can be taken by another process before AsterixDB binds it,
   * and AsterixDB then waits for the node controller forever.
   */
  private static EmbeddedAsterix start(long memoryBudget, long bufferCache, long pageBytes, int nodes, Path given)
      throws IOException {
    if (Long.bitCount(pageBytes) != 1 || pageBytes < 4096) {
      throw new IllegalArgumentException("asterixdb: a page of " + pageBytes + " bytes: must be a power of two of 4096 or more");
    }
    Path home = given == null ? Files.createTempDirectory("iam-asterixdb-") : given.toAbsolutePath().normalize();
    for (int attempt = 1; ; attempt++) {
      try {
        return start(memoryBudget, bufferCache, pageBytes, nodes, home, given != null);
      } catch (StartTimeoutException e) {
        if (attempt == START_ATTEMPTS) {
          if (given == null) {
            deleteQuietly(home);
          }
          throw new IOException("asterixdb: the embedded cluster did not become active in " + START_SECONDS
              + " s, " + START_ATTEMPTS + " times (a node controller failed to start; AsterixDB's errors are on"
              + " stderr)", e);
        }
        System.err.println("asterixdb: the embedded cluster did not become active in " + START_SECONDS
            + " s; starting it again on other ports");
      }
    }
  }

  /** The cluster did not become active in time. */
  private static final class StartTimeoutException extends IOException {
    StartTimeoutException() {
      super("not active after " + START_SECONDS + " s");
    }
  }

  private static EmbeddedAsterix start(long memoryBudget, long bufferCache, long pageBytes, int nodes, Path home,
      boolean keepHome) throws IOException {
    Path storage = home.resolve("io");
    boolean reopen = keepHome && Files.isDirectory(storage);
    Files.createDirectories(home);
    int api = freePort();
    int client = freePort();
    int cluster = freePort();
    Map<String, String> ncApiUrls = new LinkedHashMap<>();
    List<String> lines = new ArrayList<>(List.of(
        "; Written by iam-bench-asterix for an embedded CC and " + nodes + " NC(s), at each start."));
    for (int n = 1; n <= nodes; n++) {
      String nc = "asterix_nc" + n;
      int ncApi = freePort();
      ncApiUrls.put(nc, "http://127.0.0.1:" + ncApi);
      lines.addAll(List.of(
          "[nc/" + nc + "]",
          "txn.log.dir=" + home.resolve(nc).resolve("txnlog"),
          "core.dump.dir=" + home.resolve(nc).resolve("coredump"),
          "iodevices=iodevice1",
          "nc.api.port=" + ncApi,
          ""));
    }
    String conf = String.join("\n", lines) + "\n" + String.join("\n",
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
    AsterixHyracksIntegrationUtil.setStoragePath(storage.toString());
    if (!LoopbackOnly.rmiOnLoopback()) {
      System.err.println("asterixdb: this JVM's RMI socket factory was set before; RMI may listen beyond loopback");
    }
    Util util = new Util(client, cluster);
    try {
      DaemonThreads.callWithin("iam-asterixdb-start-", START_SECONDS, TimeUnit.SECONDS, () -> {
        util.init(!reopen, confFile.toString());
        return null;
      });
      LoopbackOnly.rebindConsole(util.cc);
    } catch (TimeoutException e) {
      DaemonThreads.named("iam-asterixdb-stop-").newThread(() -> { // what started of it; it may block
        try {
          util.deinit(false);
        } catch (Exception | LinkageError ignored) {
          // nothing more to do for a cluster that never became active
        }
      }).start();
      throw new StartTimeoutException();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("asterixdb: interrupted while the embedded cluster started");
    } catch (Exception e) {
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      if (!keepHome) {
        deleteQuietly(home);
      }
      throw new IOException("asterixdb: the embedded cluster did not start" + (reopen ? " on the files in " + home : "")
          + ": " + cause, cause);
    }
    EmbeddedAsterix a = new EmbeddedAsterix(home, keepHome, util, "http://127.0.0.1:" + api,
        Collections.unmodifiableMap(ncApiUrls),
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
      util.deinit(!keepHome);
    } catch (Exception e) {
      System.err.println("asterixdb: stopping the embedded cluster failed: " + e);
    } finally {
      if (!keepHome) {
        deleteQuietly(home);
      }
    }
  }

  /** The CC's HTTP API, {@code http://127.0.0.1:PORT}. */
  String apiUrl() {
    return apiUrl;
  }

  /** The first NC's HTTP API (its {@code nc.api.port}). */
  String ncApiUrl() {
    return ncApiUrls.values().iterator().next();
  }

  /** Every NC's HTTP API, by node name, in node order. */
  Map<String, String> ncApiUrls() {
    return ncApiUrls;
  }

  /** The node controllers' names, in order. */
  List<String> nodes() {
    return List.copyOf(ncApiUrls.keySet());
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

  private List<INcApplicationContext> ncs() {
    return Arrays.stream(util.ncs).map(nc -> (INcApplicationContext) nc.getApplicationContext()).toList();
  }

  private INcApplicationContext nc(String node) {
    for (INcApplicationContext nc : ncs()) {
      if (nc.getServiceContext().getNodeId().equals(node)) {
        return nc;
      }
    }
    throw new IllegalArgumentException("asterixdb: no node controller " + node + " among " + nodes());
  }

  /** The open LSM indexes of a dataset on every NC (their identifier holds {@code /dataverse/dataset/}). */
  List<ILSMIndex> openIndexes(String dataverse, String dataset) {
    List<ILSMIndex> all = new ArrayList<>();
    for (String node : nodes()) {
      all.addAll(openIndexes(dataverse, dataset, node));
    }
    return all;
  }

  /** The open LSM indexes of a dataset on one NC. */
  List<ILSMIndex> openIndexes(String dataverse, String dataset, String node) {
    String part = "/" + dataverse + "/" + dataset + "/";
    return nc(node).getDatasetLifecycleManager().getOpenResources().stream()
        .filter(ILSMIndex.class::isInstance).map(ILSMIndex.class::cast)
        .filter(i -> ("/" + i.getIndexIdentifier()).contains(part)).toList();
  }

  /** Asks every NC to flush the memory components of one dataset, by its {@code DatasetId}, and waits. */
  void flush(int datasetId) throws IOException {
    for (INcApplicationContext nc : ncs()) {
      nc.getDatasetLifecycleManager().flushDataset(datasetId, false);
    }
  }

  /** Asks every NC to flush the memory components of every dataset. */
  void flushAll() throws IOException {
    for (INcApplicationContext nc : ncs()) {
      nc.getDatasetLifecycleManager().flushAllDatasets();
    }
  }

  /**
   * A port free on loopback now, below Linux's ephemeral range (32768 and up by default), so that
   * the outgoing connections of other processes, which take ports from that range, do not take it
   * before AsterixDB binds it. Never one it gave before in this JVM.
   */
  private static synchronized int freePort() throws IOException {
    for (int tries = 0; tries < 1000; tries++) {
      int port = FIRST_PORT + PORTS.nextInt(PORT_COUNT);
      if (GIVEN_PORTS.contains(port)) {
        continue;
      }
      try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        GIVEN_PORTS.add(port);
        return s.getLocalPort();
      } catch (IOException taken) {
        // try another
      }
    }
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
