package io.iam.bench.hbase;

import io.iam.bench.host.HostExperiment;
import io.iam.bench.host.HostRun;
import io.iam.bench.load.LoadConfig;
import io.iam.hbase.compaction.IamCompactionPolicy;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongConsumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The bounded-depth experiment in the in-process HBase mini cluster ({@code iam host-experiment
 * --host hbase}).
 *
 * <p>Each {@link #run} creates a fresh table of one region (splits off) and one column family in
 * HBase's default store engine, whose compaction policy is {@link IamCompactionPolicy} running the
 * spec's policy: the spec's options become the family's properties through {@link HBaseOptions},
 * exactly as {@code iam load --tree hbase -o policy=NAME -o KEY=VALUE} sets them. The region never
 * flushes on its own. For each flush, {@code recordsPerFlush} new keys (8-byte counters) with values
 * of {@code valueBytes} random bytes (seed {@value #SEED}) are put, then the region is asked to
 * flush over the admin API, which returns once the HFile is committed and the compaction the flush
 * asks for is queued; then the experiment waits until that compaction, and any other the policy
 * wants, has finished and nothing has run for {@value #QUIET_MILLIS} ms; then it counts the store's
 * HFiles. The flushes are therefore of equal size, and the store holds still between them as the
 * cost model's sequential steps do. The table is dropped after the run, whether it succeeded or not.
 *
 * <p>What the run reports is the host's own: the flushed HFiles' and compaction outputs' lengths and
 * the compactions' times as {@link StoreEventRecorder} saw them on the table, and the store, its
 * compaction policy and the kernel policy's options as the live store holds them ({@link
 * HBaseTarget#describeStores}). The elapsed time counts from the table's creation to the last
 * flush's compactions.
 *
 * <p>The mini cluster is acquired by the first run and kept for the next ones of this object;
 * {@link #close} releases it, and stops it if no other store of the JVM holds it. Runs are
 * serialized.
 */
final class HBaseHostExperiment implements HostExperiment {

  /** The experiment's table name (with {@code _2}, {@code _3}, ... for the later runs). */
  static final String TABLE = "host_experiment";
  static final long SEED = 42;
  /**
   * The memstore flush size: far above any flush of the experiment, so the region flushes only when
   * asked. A run refuses flushes of more than a quarter of it.
   */
  static final long FLUSH_BYTES = 1L << 30;
  /**
   * {@code hbase.hstore.blockingStoreFiles} of the experiment's store: far above the files of any
   * run's store, so that HBase's reaction to a store with many files never changes the merges. At
   * that count (HBase's default 16; the load target raises it only to k + 2 for a bounded policy with
   * k > 14) {@link IamCompactionPolicy} hands the selection to HBase's ratio-based logic whenever its
   * policy wants no merge, so that writes do not block: a policy whose stack may reach 16 files
   * (prefix, which bounds nothing) would then make merges the model does not. HBase also holds back
   * the flushes it starts itself at that count, for up to {@code hbase.hstore.blockingWaitTime} (90 s).
   */
  static final int BLOCKING_STORE_FILES = 10_000;
  /** The region server's block cache when the experiment starts the cluster. */
  private static final long CACHE_BYTES = 64L << 20;
  /** Puts sent in one call, at most. */
  private static final int PUT_BATCH = 1_000;
  /** How long the store must stay idle after a flush before its compactions are taken as done. */
  static final long QUIET_MILLIS = 20;
  static final long TIMEOUT_SECONDS = 120;
  /** A rough heap cost of one cell in the memstore beyond its value, for the size check. */
  private static final long CELL_OVERHEAD_BYTES = 128;

  /** The cluster's client connection while this object holds the cluster; null before the first run. */
  private Connection connection;

  /**
   * Runs {@code spec} on a fresh table, and drops the table.
   *
   * @throws IllegalArgumentException if a flush would not fit the memstore, or the options are not
   *     the policy's
   * @throws IOException if HBase fails, flushes on its own, or does not finish a flush's compactions
   *     within {@value #TIMEOUT_SECONDS} s
   */
  @Override
  public synchronized HostRun run(Spec spec, LongConsumer progress) throws IOException {
    if (spec.nodes() != 1) {
      throw new IllegalArgumentException(HBaseTarget.NAME + ": the experiment runs in one store of one region"
          + " server; --ncs " + spec.nodes() + " is AsterixDB's");
    }
    long flushBytes = (long) spec.recordsPerFlush() * (spec.valueBytes() + CELL_OVERHEAD_BYTES);
    if (flushBytes > FLUSH_BYTES / 4) {
      throw new IllegalArgumentException(HBaseTarget.NAME + ": a flush of " + spec.recordsPerFlush()
          + " records of " + spec.valueBytes() + " bytes does not fit the experiment's memstore; write fewer or"
          + " smaller records");
    }
    HBaseOptions options = options(spec);
    Connection c = connection(options.server());
    long start = System.nanoTime();
    TableName table = HBaseTarget.createTable(c, options, name -> descriptor(name, options));
    HostRun result;
    try {
      result = run(c, table, spec, progress, start);
    } catch (IOException | RuntimeException e) {
      try {
        drop(c, table);
      } catch (IOException | RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    drop(c, table);
    return result;
  }

  /** Drops {@code table} and forgets its events. */
  private static void drop(Connection c, TableName table) throws IOException {
    try (Admin admin = c.getAdmin()) {
      admin.disableTable(table);
      admin.deleteTable(table);
    } finally {
      StoreEventRecorder.forget(table);
    }
  }

  /**
   * The store options of {@code spec}, as the load target parses {@code -o policy=NAME -o KEY=VALUE},
   * with the experiment's table name and blocking store files.
   */
  static HBaseOptions options(Spec spec) {
    Map<String, String> given = new LinkedHashMap<>(spec.options());
    given.put(LoadConfig.POLICY, spec.policy());
    given.put(HBaseOptions.TABLE, TABLE);
    HBaseOptions o = HBaseOptions.parse(given);
    return new HBaseOptions(o.zookeeper(), o.table(), false, o.familyConfiguration(), BLOCKING_STORE_FILES,
        o.server());
  }

  /**
   * The load target's table ({@link HBaseTarget#descriptor}), with {@link StoreEventRecorder}, and
   * with the region's own flushes off: no periodic flush ({@code
   * hbase.regionserver.optionalcacheflushinterval} 0; HBase's default flushes a memstore older than
   * an hour) and no flush after a count of edits (HBase's 30 million raised to its maximum).
   */
  private static TableDescriptor descriptor(TableName name, HBaseOptions options) {
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(HBaseTarget.descriptor(name, options, FLUSH_BYTES))
        .setValue(HRegion.MEMSTORE_PERIODIC_FLUSH_INTERVAL, "0")
        .setValue(HRegion.MEMSTORE_FLUSH_PER_CHANGES, Long.toString(HRegion.MAX_FLUSH_PER_CHANGES));
    try {
      table.setCoprocessor(StoreEventRecorder.class.getName());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return table.build();
  }

  /**
   * The mini cluster's connection, acquiring the cluster with the region server's {@code settings}
   * on the first call (a later run asking for other settings is refused by {@link MiniCluster}).
   */
  private Connection connection(RegionServerSettings settings) throws IOException {
    if (connection == null) {
      Configuration conf = MiniCluster.acquire(LoadConfig.defaults(HBaseTarget.NAME, FLUSH_BYTES, CACHE_BYTES), settings);
      try {
        connection = ConnectionFactory.createConnection(conf);
      } catch (IOException | RuntimeException e) {
        MiniCluster.release();
        throw e;
      }
    }
    return connection;
  }

  private static HostRun run(Connection c, TableName table, Spec spec, LongConsumer progress, long start)
      throws IOException {
    List<HRegion> regions = MiniCluster.regions(table);
    if (regions.size() != 1) {
      throw new IOException(HBaseTarget.NAME + ": table " + table + " has " + regions.size() + " regions, not one");
    }
    HRegion region = regions.get(0);
    HStore store = region.getStore(HBaseTarget.FAMILY);
    StoreEventRecorder.Events events = StoreEventRecorder.of(table);
    Random random = new Random(SEED);
    long key = 0;
    long components = 0;
    int max = 0;
    try (Table t = c.getTable(table); Admin admin = c.getAdmin()) {
      for (int f = 1; f <= spec.flushes(); f++) {
        List<Put> puts = new ArrayList<>(Math.min(PUT_BATCH, spec.recordsPerFlush()));
        for (int r = 0; r < spec.recordsPerFlush(); r++) {
          byte[] value = new byte[spec.valueBytes()];
          random.nextBytes(value);
          puts.add(new Put(Bytes.toBytes(key++)).addColumn(HBaseTarget.FAMILY, HBaseTarget.COLUMN, value));
          if (puts.size() == PUT_BATCH || r == spec.recordsPerFlush() - 1) {
            t.put(puts);
            puts = new ArrayList<>(PUT_BATCH);
          }
        }
        checkFlushes(events, f - 1, "before flush " + f + " was asked for");
        admin.flushRegion(region.getRegionInfo().getRegionName());
        checkFlushes(events, f, "after flush " + f);
        awaitCompactions(region, store, events, f);
        int now = store.getStorefilesCount();
        components += now;
        max = Math.max(max, now);
        progress.accept(f);
      }
    }
    return new HostRun(HBaseTarget.NAME, "table " + table + ", one region: " + HBaseTarget.describeStores(table),
        events.flushLengths(), events.compactionLengths(), events.compactionMillis(),
        (double) components / spec.flushes(), max, (System.nanoTime() - start) / 1_000_000,
        events.compactionInputs(), events.compactionInputBytes());
  }

  /** Fails unless the table has flushed exactly {@code expected} HFiles. */
  private static void checkFlushes(StoreEventRecorder.Events events, int expected, String when) throws IOException {
    int flushes = events.flushes();
    if (flushes != expected) {
      throw new IOException(HBaseTarget.NAME + ": the region had flushed " + flushes + " HFiles " + when
          + ", not " + expected + (flushes > expected
              ? ": HBase flushed on its own (the region server's global memstore limit is lower than a flush?)"
              : ": the flush wrote nothing"));
    }
  }

  /**
   * Waits until the store has no compaction queued, running or wanted by its policy, and nothing has
   * changed for {@value #QUIET_MILLIS} ms. HBase queues a compaction and selects its files only when
   * a thread takes it, and marks the region as compacting only once the selection is made, so the
   * store is idle only when the policy also wants nothing ({@code HStore.needsCompaction()}: the
   * policy's scheduled merges that can run now); the quiet moment covers the handovers in between.
   */
  private static void awaitCompactions(HRegion region, HStore store, StoreEventRecorder.Events events,
      int flush) throws IOException {
    long deadline = System.nanoTime() + TIMEOUT_SECONDS * 1_000_000_000L;
    long quietSince = -1;
    long lastCompactions = -1;
    while (true) {
      long now = System.nanoTime();
      long compactions = events.compactions();
      boolean idle = events.running() == 0 && MiniCluster.queuedCompactions() == 0
          && region.getCompactionState() == CompactionState.NONE && !store.needsCompaction();
      if (!idle || compactions != lastCompactions) {
        quietSince = -1;
      } else if (quietSince < 0) {
        quietSince = now;
      } else if (now - quietSince >= QUIET_MILLIS * 1_000_000L) {
        return;
      }
      lastCompactions = compactions;
      if (now > deadline) {
        throw new IOException(HBaseTarget.NAME + ": the compactions of flush " + flush + " did not finish in "
            + TIMEOUT_SECONDS + " s: " + MiniCluster.queuedCompactions() + " queued, " + events.running()
            + " running, region " + region.getCompactionState() + ", policy wants more: " + store.needsCompaction());
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(HBaseTarget.NAME + ": interrupted waiting for the compactions of flush "
            + flush);
      }
    }
  }

  /** Releases the mini cluster, and stops it if no other store of the JVM holds it. */
  @Override
  public synchronized void close() throws IOException {
    if (connection == null) {
      return;
    }
    try {
      connection.close();
    } finally {
      connection = null;
      MiniCluster.release();
      MiniCluster.stopIfUnused();
    }
  }
}
