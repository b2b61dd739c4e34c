package io.iam.bench.hbase;

import static io.iam.bench.util.Sizes.human;

import io.iam.bench.load.EngineCounters;
import io.iam.bench.load.LevelMetrics;
import io.iam.bench.load.LoadConfig;
import io.iam.bench.load.LoadMetrics;
import io.iam.bench.load.LoadTarget;
import io.iam.bench.load.SettleWaiter;
import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.ReplayedFlushes;
import io.iam.core.sim.SimulationResult;
import io.iam.core.sim.Simulator;
import io.iam.hbase.compaction.IamCompactionPolicy;
import io.iam.hbase.engine.EngineSettings;
import io.iam.hbase.engine.IamStoreFileManager;
import io.iam.hbase.engine.IamStores;
import io.iam.hbase.engine.StoreTree;
import io.iam.hbase.engine.IamStoreEngine;
import io.iam.hbase.metrics.StoreWriteStats;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionPolicy;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * An HBase table as a store of {@code iam load} and {@code iam ycsb}, through the unshaded HBase
 * client in this JVM. The options ({@link HBaseOptions}) choose the cluster, the table and the
 * column family's policy.
 *
 * <ul>
 *   <li><b>Cluster.</b> By default the in-process {@link MiniCluster}, shared by every store of the
 *       JVM; each opened store creates a fresh table there, under a name no store of the JVM used
 *       before, and drops it when it closes. With {@code -o zookeeper=host:port} a
 *       real cluster: the table is created if it does not exist (several clients of one distributed
 *       run share it; the first creates it), and used as it is if it does.
 *   <li><b>Table.</b> One column family {@code f} with one column {@code v} holding the whole value,
 *       one version, a row Bloom filter; the memstore flush size is {@link LoadConfig#memtableBytes()}
 *       (on a real cluster at least HBase's 1 MiB, which its master enforces: a smaller one is raised,
 *       with a message on stderr); region splits off unless {@code region-splits=true}.
 *   <li><b>Writes.</b> Puts go through one {@link BufferedMutator}. Every read, scan and delete first
 *       flushes what was buffered, so it sees every put that returned before it started. Cells carry a
 *       timestamp from this store, strictly increasing, so the newest put always wins and a put after a
 *       delete of the same key is visible (HBase's own millisecond timestamps would tie).
 *   <li><b>{@link #settle()}</b> flushes the table and waits, bounded by {@link
 *       LoadConfig#settleTimeout()}, until no memstore holds data, no compaction runs and (on the mini
 *       cluster) no store asks for one.
 *   <li><b>{@link #metrics()}.</b> On the mini cluster, exact: flush and compaction bytes are the
 *       table's own, counted by iam-hbase's {@code StoreWriteObserver} from the files HBase wrote; disk
 *       bytes are the live store files ({@code HStore.getStorefilesSize}). Under IAM's store engine
 *       the figures are per tree level (each file's tag names its level); files outside a tree, and
 *       every file of HBase's own engines (a stack has no levels), are level 0. On a real cluster the client cannot see the region servers' counters: flush and
 *       compaction bytes are 0 and disk bytes come from the region metrics (MiB resolution); read
 *       write amplification from each region server's JMX (docs/ycsb-hbase.md).
 * </ul>
 *
 * <p>{@link #put}, {@link #get}, {@link #delete} and {@link #scan} are thread-safe (the mutator is;
 * each call takes its own lightweight {@link Table} from the shared connection).
 */
public final class HBaseTarget implements LoadTarget {

  /** The name under which this store is registered. */
  public static final String NAME = "hbase";

  static final byte[] FAMILY = Bytes.toBytes("f");
  static final byte[] COLUMN = Bytes.toBytes("v");
  /** HBase's master refuses smaller memstore flush sizes while its table sanity checks are on. */
  static final long MIN_FLUSH_BYTES = 1L << 20;
  /**
   * The mutator's buffer: a quarter of the memstore, 64 KiB to 2 MiB. A region checks its flush size
   * once per batch it receives, so a buffer near the memstore size would make flushes of about twice
   * the budget.
   */
  static long writeBufferBytes(long memtableBytes) {
    return Math.max(64L << 10, Math.min(2L << 20, memtableBytes / 4));
  }
  private static final int MAX_SCAN_CACHING = 1_000;
  /** How long a settled table must stay idle to count as settled. */
  private static final Duration CONFIRM_IDLE = Duration.ofMillis(300);
  /** Longer than HBase's 10 s metrics period: two JMX readings this far apart that agree are current. */
  private static final Duration JMX_PERIOD = Duration.ofSeconds(11);

  /** The mini cluster's table names used in this JVM: a store never takes a dropped store's name. */
  private static final java.util.Set<TableName> USED_NAMES = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final LoadConfig config;
  private final HBaseOptions options;
  private final TableName name;
  private final Connection connection;
  private final BufferedMutator mutator;
  /** Puts share it; {@link #flushWrites()} takes it alone. */
  private final ReentrantReadWriteLock writes = new ReentrantReadWriteLock();
  /** Whether a put returned since the last {@link #flushWrites()}. */
  private final AtomicBoolean buffered = new AtomicBoolean();
  private final AtomicLong lastTimestamp = new AtomicLong();
  private final LongAdder userBytes = new LongAdder();
  /** A real cluster's JMX counters of the table when this store opened; zeros on the mini cluster. */
  private final RegionServerJmx.Written jmxAtOpen;
  private boolean closed;

  private HBaseTarget(LoadConfig config, HBaseOptions options, TableName name, Connection connection,
      BufferedMutator mutator, RegionServerJmx.Written jmxAtOpen) {
    this.config = config;
    this.options = options;
    this.name = name;
    this.connection = connection;
    this.mutator = mutator;
    this.jmxAtOpen = jmxAtOpen;
  }

  /**
   * Opens the store: checks the options, starts or joins the cluster, creates the table. The {@link
   * LoadTarget.Factory} of {@value #NAME}; {@code dir} is not used (the mini cluster keeps its files
   * in a temporary directory of its own).
   *
   * @throws IllegalArgumentException naming each bad option (before any cluster is started)
   */
  public static HBaseTarget open(Path dir, LoadConfig config) throws IOException {
    HBaseOptions options = HBaseOptions.parse(config.engineOptions());
    Configuration conf;
    if (options.miniCluster()) {
      conf = MiniCluster.acquire(config, options.server());
    } else {
      conf = HBaseConfiguration.create();
      conf.set(HConstants.ZOOKEEPER_QUORUM, options.zookeeper().orElseThrow());
    }
    Connection connection = null;
    try {
      connection = ConnectionFactory.createConnection(conf);
      TableName name = createTable(connection, options, config);
      BufferedMutator mutator = connection.getBufferedMutator(
          new org.apache.hadoop.hbase.client.BufferedMutatorParams(name).writeBufferSize(writeBufferBytes(config.memtableBytes())));
      RegionServerJmx.Written jmxAtOpen = new RegionServerJmx.Written(0, 0,
          new RegionServerJmx.Blocked(MiniCluster.updatesBlockedMillis(), 0), List.of(), List.of());
      if (!options.miniCluster()) {
        try (Admin admin = connection.getAdmin()) {
          jmxAtOpen = RegionServerJmx.read(admin, name, Bytes.toString(FAMILY));
        }
      }
      HBaseTarget target = new HBaseTarget(config, options, name, connection, mutator, jmxAtOpen);
      System.err.println("iam-bench-hbase: " + target.describeStore());
      return target;
    } catch (IOException | RuntimeException | Error e) {
      if (connection != null) {
        try {
          connection.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      if (options.miniCluster()) {
        MiniCluster.release();
      }
      throw e;
    }
  }

  /** The table this store writes. */
  public TableName table() {
    return name;
  }

  private static TableName createTable(Connection connection, HBaseOptions options, LoadConfig config)
      throws IOException {
    long flushBytes = config.memtableBytes();
    if (!options.miniCluster() && flushBytes < MIN_FLUSH_BYTES) {
      System.err.println("iam-bench-hbase: memstore flush size " + human(flushBytes) + " raised to "
          + human(MIN_FLUSH_BYTES) + ", the smallest an HBase master accepts (hbase.table.sanity.checks)");
      flushBytes = MIN_FLUSH_BYTES;
    }
    long flush = flushBytes;
    return createTable(connection, options, name -> descriptor(name, options, flush));
  }

  /**
   * Creates the table {@code descriptor} describes under {@code options}' table name: on the mini
   * cluster always a fresh table, under a name no store of this JVM used before ({@code _2}, {@code
   * _3}, ... appended); on a real cluster the existing table of that name if there is one.
   *
   * @return the table's name
   */
  static TableName createTable(Connection connection, HBaseOptions options,
      Function<TableName, TableDescriptor> descriptor) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      for (int n = 1; ; n++) {
        TableName name = TableName.valueOf(n == 1 ? options.table() : options.table() + "_" + n);
        if (options.miniCluster() && !USED_NAMES.add(name)) {
          continue; // a name of its own: the region server's counters are kept by table name
        }
        if (admin.tableExists(name)) {
          if (options.miniCluster()) {
            continue; // a fresh table per store
          }
          System.err.println("iam-bench-hbase: table " + name + " exists; using it as it is (its column"
              + " family's policy is the one it was created with)");
          return name;
        }
        try {
          admin.createTable(descriptor.apply(name));
          return name;
        } catch (TableExistsException e) {
          if (!options.miniCluster()) {
            return name; // another client of the same run created it first
          }
        }
      }
    }
  }

  static TableDescriptor descriptor(TableName name, HBaseOptions options, long flushBytes) {
    ColumnFamilyDescriptorBuilder family = ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setMaxVersions(1);
    options.familyConfiguration().forEach(family::setConfiguration);
    if (options.blockingStoreFiles() > 0) {
      family.setConfiguration("hbase.hstore.blockingStoreFiles", Integer.toString(options.blockingStoreFiles()));
    }
    ColumnFamilyDescriptor f = family.build();
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(name).setColumnFamily(f)
        .setMemStoreFlushSize(flushBytes);
    if (!options.regionSplits()) {
      table.setRegionSplitPolicyClassName(DisabledRegionSplitPolicy.class.getName());
    }
    return table.build();
  }

  /** A timestamp above every one this store gave before: the wall clock, or one more than the last. */
  private long nextTimestamp() {
    long now = System.currentTimeMillis();
    return lastTimestamp.updateAndGet(last -> Math.max(now, last + 1));
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    Put put = new Put(key, nextTimestamp()).addColumn(FAMILY, COLUMN, value);
    writes.readLock().lock();
    try {
      mutator.mutate(put);
      buffered.set(true);
    } finally {
      writes.readLock().unlock();
    }
    userBytes.add(key.length + value.length);
  }

  /**
   * Puts are thread-safe: the {@link BufferedMutator} is, timestamps come from an atomic counter,
   * and the user bytes are a {@link LongAdder}.
   */
  @Override
  public boolean concurrentPuts() {
    return true;
  }

  /**
   * Sends the buffered puts, if any, so that what follows sees every put that returned before. It
   * holds {@link #writes} exclusively: a {@code mutate} that overflows the buffer sends rows of other
   * threads' returned puts and waits for them, and the mutator's {@code flush()} does not wait for
   * such a batch, so no {@code mutate} may be running while it flushes.
   */
  private void flushWrites() throws IOException {
    if (!buffered.get()) {
      return;
    }
    writes.writeLock().lock();
    try {
      if (buffered.get()) {
        mutator.flush();
        buffered.set(false);
      }
    } finally {
      writes.writeLock().unlock();
    }
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    flushWrites();
    try (Table table = connection.getTable(name)) {
      Result r = table.get(new Get(key).addColumn(FAMILY, COLUMN));
      return r.getValue(FAMILY, COLUMN);
    }
  }

  @Override
  public void delete(byte[] key) throws IOException {
    flushWrites();
    try (Table table = connection.getTable(name)) {
      table.delete(new Delete(key, nextTimestamp()));
    }
  }

  @Override
  public int scan(byte[] start, int limit, Entries entries) throws IOException {
    if (limit <= 0) {
      return 0;
    }
    flushWrites();
    Scan scan = new Scan().withStartRow(start).addColumn(FAMILY, COLUMN).setLimit(limit)
        .setCaching(Math.min(limit, MAX_SCAN_CACHING));
    int n = 0;
    try (Table table = connection.getTable(name); ResultScanner results = table.getScanner(scan)) {
      for (Result r : results) {
        entries.accept(r.getRow(), r.getValue(FAMILY, COLUMN));
        if (++n == limit) {
          break;
        }
      }
    }
    return n;
  }

  @Override
  public void settle() throws IOException {
    flushWrites();
    try (Admin admin = connection.getAdmin()) {
      flushRegions(admin);
      long deadline = System.nanoTime() + config.settleTimeout().toNanos();
      do {
        Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
        SettleWaiter.of(NAME + " table " + name, left).await(() -> work(admin));
      } while (!stillSettled(admin));
    }
  }

  /**
   * Whether the table is still idle a moment after the waiter found it so: between a compaction's
   * end and the next one it chains, or between a queued compaction leaving the queue and selecting
   * its files, HBase reports no compaction for a few milliseconds.
   */
  private boolean stillSettled(Admin admin) throws IOException {
    long before = work(admin).bytesWritten();
    try {
      Thread.sleep(CONFIRM_IDLE.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException(NAME + " table " + name + ": interrupted while settling");
    }
    SettleWaiter.Work after = work(admin);
    return !after.flushPending() && after.runningCompactions() == 0 && after.bytesWritten() == before;
  }

  /**
   * Flushes every region of the table through its region server. Not {@code Admin.flush(table)}:
   * since HBase 2.6 that runs a master procedure whose region step fails when the region is
   * already flushing ("Unable to complete flush") and is retried after a backoff that grows each
   * time; a load whose memstore flushes waited for the IAM tree met it once in about thirty runs
   * and waited more than ten minutes. A region server asked directly flushes the region, or
   * answers that a flush is already writing it.
   */
  private void flushRegions(Admin admin) throws IOException {
    for (RegionInfo region : admin.getRegions(name)) {
      admin.flushRegion(region.getRegionName());
    }
  }

  /** The table's background work now: memstore data, running compactions, stores asking for one. */
  private SettleWaiter.Work work(Admin admin) throws IOException {
    int compacting = admin.getCompactionState(name) != CompactionState.NONE ? 1 : 0;
    if (!options.miniCluster()) {
      return new SettleWaiter.Work(false, 0, false, compacting, 0);
    }
    compacting += MiniCluster.queuedCompactions();
    boolean memstore = false;
    boolean wanted = false;
    for (HRegion region : MiniCluster.regions(name)) {
      memstore |= region.getMemStoreDataSize() > 0;
      HStore store = region.getStore(FAMILY);
      wanted |= store != null && store.needsCompaction();
    }
    if (memstore) {
      flushRegions(admin);
    }
    StoreWriteStats.Snapshot s = written();
    return new SettleWaiter.Work(memstore, 0, wanted, compacting, s.flushedBytes() + s.compactedBytes());
  }

  /** The table's own flush and compaction counters (mini cluster). */
  private StoreWriteStats.Snapshot written() {
    return StoreWriteStats.total(name.getNameAsString(), Bytes.toString(FAMILY));
  }

  @Override
  public LoadMetrics metrics() throws IOException {
    long user = userBytes.sum();
    if (!options.miniCluster()) {
      return clusterMetrics(user);
    }
    StoreWriteStats.Snapshot s = written();
    long disk = 0;
    int files = 0;
    // Level 0: files outside any tree (every file of HBase's own engines); 1..: IAM's tree levels.
    List<long[]> levels = new ArrayList<>(); // {files, bytes} per level
    for (HRegion region : MiniCluster.regions(name)) {
      HStore store = region.getStore(FAMILY);
      disk += store.getStorefilesSize();
      files += store.getStorefiles().size();
      for (HStoreFile f : store.getStorefiles()) {
        int level = IamStoreFileManager.levelOf(f);
        while (levels.size() <= level) {
          levels.add(new long[2]);
        }
        levels.get(level)[0]++;
        levels.get(level)[1] += f.getReader() == null ? 0 : f.getReader().length();
      }
    }
    List<LevelMetrics> perLevel = new ArrayList<>();
    for (int i = 0; i < Math.max(levels.size(), s.bytesByLevel().size()); i++) {
      long[] here = i < levels.size() ? levels.get(i) : new long[2];
      if (here[0] > 0 || s.bytesAtLevel(i) > 0) {
        perLevel.add(LevelMetrics.of(i, (int) here[0], here[1], s.bytesAtLevel(i), user));
      }
    }
    String stats = describeStore() + String.format(Locale.ROOT,
        "%nflushes %,d (%s), compaction outputs %,d (%s), store files %,d (%s, at most %,d seen);"
            + " HBase's write amplification over flushed bytes %.2f",
        s.flushes(), human(s.flushedBytes()), s.compactionOutputs(), human(s.compactedBytes()), files, human(disk),
        s.maxStoreFiles(), s.writeAmplification()) + String.format(Locale.ROOT, "; %,d memstore flushes",
        s.memstoreFlushes()) + "\nwrites held back since the table was created: " + blocked() + treeStats();
    return new LoadMetrics(user, s.flushedBytes(), s.compactedBytes(), disk,
        perLevel, stats);
  }

  /**
   * HBase's own metrics of the writes it held back since this table was created, and on the mini
   * cluster the shape of the table's IAM trees (summed over its regions; m and k of the deepest),
   * under {@link EngineCounters}' names.
   */
  @Override
  public Map<String, Number> properties() throws IOException {
    Map<String, Number> p = new LinkedHashMap<>();
    RegionServerJmx.Blocked blocked;
    if (!options.miniCluster()) {
      try (Admin admin = connection.getAdmin()) {
        blocked = RegionServerJmx.read(admin, name, Bytes.toString(FAMILY)).blocked().since(jmxAtOpen.blocked());
      }
    } else {
      blocked = blocked();
      long waitMillis = 0;
      boolean iam = false;
      for (StoreTree t : tablesTrees()) {
        iam = true;
        waitMillis += t.getFlushWaitMillis();
        if (t.getDepth() >= p.getOrDefault(EngineCounters.DEPTH, 0).intValue()) {
          p.put(EngineCounters.DEPTH, t.getDepth());
          p.put(EngineCounters.MIXED_LEVEL, t.getMixedLevel());
          p.put(EngineCounters.MAX_SEQUENCES, t.getSequenceCap());
        }
        for (int i = 0; i < t.getDepth(); i++) {
          p.merge("level." + (i + 1) + ".nodes", t.getNodesPerLevel().get(i), (a, b) -> a.longValue() + b.longValue());
          p.merge("level." + (i + 1) + ".sequences", t.getHfilesPerLevel().get(i), (a, b) -> a.longValue() + b.longValue());
        }
      }
      if (iam) {
        p.put(EngineCounters.FLUSH_WAIT_MICROS, waitMillis * 1000);
      }
      simulatedBeside(p);
    }
    p.put(EngineCounters.HBASE_UPDATES_BLOCKED_MICROS, blocked.updatesBlockedMillis() * 1000);
    p.put(EngineCounters.HBASE_BLOCKED_REQUESTS, blocked.blockedRequests());
    return p;
  }

  /**
   * For a table of one region run by one of IAM's stack policies: the bytes it wrote over the bytes
   * it flushed, and the simulator's figure for the same policy replaying the same flushes (each
   * flushed, then merged, as HBase writes them).
   */
  private void simulatedBeside(Map<String, Number> p) {
    List<HRegion> regions = MiniCluster.regions(name);
    if (regions.size() != 1) {
      return;
    }
    CompactionPolicy policy = regions.get(0).getStore(FAMILY).getStoreEngine().getCompactionPolicy();
    List<Long> flushes = StoreWriteStats.flushLengths(name.getNameAsString(), Bytes.toString(FAMILY));
    if (!(policy instanceof IamCompactionPolicy iam) || iam.kernelPolicy() == null || flushes.isEmpty()) {
      return;
    }
    MergePolicy kernel = MergePolicies.create(iam.kernelPolicy().name(), iam.kernelPolicy().options().asStrings());
    SimulationResult sim = new Simulator(kernel, new ReplayedFlushes("HBase", flushes, null),
        Accounting.FLUSH_THEN_MERGE, flushes.size(), null).run(flushes.size());
    StoreWriteStats.Snapshot s = written();
    p.put(EngineCounters.FLUSHED_WRITE_AMPLIFICATION, s.writeAmplification());
    p.put(EngineCounters.SIMULATED_WRITE_AMPLIFICATION, sim.writeAmplification());
  }

  /** This table's stores run by IAM's engine, as its MBean shows them (mini cluster: this JVM). */
  private List<StoreTree> tablesTrees() {
    List<StoreTree> trees = new ArrayList<>();
    for (StoreTree t : IamStores.get().getStores()) {
      if (t.getStore().startsWith(name.getNameAsString() + "/")) {
        trees.add(t);
      }
    }
    return trees;
  }

  /** HBase's own metrics of writes held back since this table was created (mini cluster). */
  private RegionServerJmx.Blocked blocked() {
    long refused = 0;
    for (HRegion region : MiniCluster.regions(name)) {
      refused += region.getBlockedRequestsCount();
    }
    return new RegionServerJmx.Blocked(MiniCluster.updatesBlockedMillis(), refused).since(jmxAtOpen.blocked());
  }

  /** What the region server's JMX shows of this table's IAM trees (the mini cluster is this JVM); empty if none. */
  private String treeStats() {
    StringBuilder b = new StringBuilder();
    for (StoreTree t : tablesTrees()) {
      b.append(String.format(Locale.ROOT, "%nIAM tree %s: %s, m %d, k %d, depth %d, nodes per level %s,"
              + " HFiles per level %s; flushes waited for level 1 %,d ms", t.getStore(), t.getTree(),
          t.getMixedLevel(), t.getSequenceCap(), t.getDepth(), t.getNodesPerLevel(), t.getHfilesPerLevel(),
          t.getFlushWaitMillis()));
    }
    return b.toString();
  }

  /**
   * A real cluster's figures: disk bytes from the region metrics; flush and compaction bytes from the
   * region servers' JMX ({@link RegionServerJmx}) since this store opened, once two readings 11 s
   * apart agree (HBase publishes to JMX every 10 s). They are the whole table's: in a run with several
   * clients, every client's.
   */
  private LoadMetrics clusterMetrics(long user) throws IOException {
    long disk = 0;
    int files = 0;
    try (Admin admin = connection.getAdmin()) {
      for (ServerName server : admin.getRegionServers()) {
        for (RegionMetrics r : admin.getRegionMetrics(server, name)) {
          disk += (long) r.getStoreFileSize().get(Size.Unit.BYTE);
          files += r.getStoreFileCount();
        }
      }
      RegionServerJmx.Written now = RegionServerJmx.settled(admin, name, Bytes.toString(FAMILY), JMX_PERIOD,
          System.nanoTime() + config.settleTimeout().toNanos());
      long flushed = Math.max(0, now.flushed() - jmxAtOpen.flushed());
      long compacted = Math.max(0, now.compacted() - jmxAtOpen.compacted());
      String stats = describeStore() + "\nregion servers' JMX (" + RegionServerJmx.BEAN + "), since this store"
          + " opened, the whole table's: flushed " + human(flushed) + ", compacted " + human(compacted)
          + "; writes held back since this store opened: " + now.blocked().since(jmxAtOpen.blocked())
          + "; per server " + now.perServer() + (now.problems().isEmpty() ? "" : "; not read: " + now.problems());
      return new LoadMetrics(user, flushed, compacted, disk,
          List.of(LevelMetrics.of(0, files, disk, flushed + compacted, user)), stats);
    }
  }

  /**
   * The table, where it runs, and what its stores run: on the mini cluster read back from the live
   * stores (engine, compaction policy and the kernel policy with its options), so it shows what HBase
   * really loaded; on a real cluster the column family's configuration as the master holds it.
   */
  String describeStore() throws IOException {
    StringBuilder b = new StringBuilder("table ").append(name.getNameAsString()).append(", column family f");
    if (!options.miniCluster()) {
      b.append(" on the cluster of ZooKeeper ").append(options.zookeeper().orElseThrow());
      try (Admin admin = connection.getAdmin()) {
        Map<String, String> conf = admin.getDescriptor(name).getColumnFamily(FAMILY).getConfiguration();
        b.append(": ").append(conf.isEmpty() ? "HBase's default store engine and policy" : conf);
      }
      return b.toString();
    }
    b.append(" on the in-process mini cluster: ").append(describeStores(name));
    return b.toString();
  }

  /**
   * What the stores of {@code table}'s family {@code f} on the mini cluster run, read back from the
   * live stores: engine, compaction policy (with the kernel policy and its options, or IAM's engine
   * settings), flush size, blocking store files and the region server's compaction throughput limit;
   * one entry per region.
   */
  static String describeStores(TableName table) {
    List<String> stores = new ArrayList<>();
    for (HRegion region : MiniCluster.regions(table)) {
      HStore store = region.getStore(FAMILY);
      CompactionPolicy policy = store.getStoreEngine().getCompactionPolicy();
      String kernel = "";
      if (policy instanceof IamCompactionPolicy iam && iam.kernelPolicy() != null) {
        kernel = " running " + iam.kernelPolicy().name() + " " + iam.kernelPolicy().options().asStrings();
      } else if (store.getStoreEngine() instanceof IamStoreEngine) {
        kernel = " " + EngineSettings.parse(store.getReadOnlyConfiguration()).asStrings();
      }
      stores.add("store engine " + store.getStoreEngine().getClass().getSimpleName() + ", compaction policy "
          + policy.getClass().getSimpleName() + kernel + ", flush size "
          + human(region.getMemStoreFlushSize()) + ", blocking store files " + store.getBlockingFileCount()
          + ", compactions " + MiniCluster.compactionLimit());
    }
    return String.join("; ", stores);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      try {
        mutator.close();
        if (options.miniCluster()) {
          // The cluster stays up for the next store: free its region server of this table.
          try (Admin admin = connection.getAdmin()) {
            admin.disableTable(name);
            admin.deleteTable(name);
          }
        }
      } finally {
        connection.close();
      }
    } finally {
      if (options.miniCluster()) {
        MiniCluster.release();
      }
    }
  }
}
