package io.iam.bench.asterix;

import io.iam.asterix.policy.AsterixPolicies;
import io.iam.asterix.policy.IamMergePolicyFactory;
import io.iam.bench.host.HostExperiment;
import io.iam.bench.host.HostRun;
import io.iam.bench.load.LoadConfig;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongConsumer;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;

/**
 * The bounded-depth experiment in the embedded AsterixDB: a fresh dataset under the policy (through
 * {@code iam-asterix}, as an operator would set it), and for each flush {@code recordsPerFlush} new
 * records sent as one batch, then the NC asked to flush, then a wait until that flush and every
 * merge it started have completed, then the primary index's disk components counted. The flushes
 * are therefore of equal size, as in the paper's runs, and the store holds still between them as
 * the cost model's sequential steps do. Sizes and merge times are those the NC's IO scheduler saw
 * ({@link IoCounter}).
 *
 * <p>The dataset's pages are stored uncompressed ({@code -o compression=none}): a component's bytes
 * are then a function of its records, as the cost model's are. With AsterixDB's default, snappy,
 * flushes of the same 100 records of random values measured 123,248 to 147,701 bytes, and a merge
 * wrote up to 2% more or less than its inputs; the size-driven policies (bigtable's "no longer than
 * all newer ones together") turn such noise into other decisions from one run to the next.
 *
 * <p>With {@code nodes} above one, the instance runs that many NCs and the dataset is
 * hash-partitioned over them: each NC's primary index is a store of its own under the policy, the
 * flush request reaches every NC, and each partition's flushes, merges and components are reported
 * as a run of their own ({@link HostRun#ofNodes}). The instance's node count is that of the first
 * run; a run asking for another is refused.
 */
final class AsterixHostExperiment implements HostExperiment {

  /** The memory budget: far above a flush, so AsterixDB never flushes on its own between ours. */
  private static final long MEMORY_BUDGET = 64L << 20;
  private static final long CACHE = 64L << 20;
  /** Pages of the instance the experiment starts (see the class comment). */
  static final long PAGE_BYTES = 4L << 10;
  /** How long the counts must stay still after a flush before its merges are taken as done. */
  private static final long QUIET_NANOS = 5_000_000L;
  private static final long FLUSH_TIMEOUT_NANOS = 120_000_000_000L;

  /**
   * Held while a run creates or drops its datasets, so that runs side by side do it one at a time:
   * two first batches at the same moment failed in AsterixDB 0.9.8 with "ASX3025: Unknown record
   * reader factory: localfs".
   */
  private static final Object DDL = new Object();

  /** The instance, held from the first run to {@link #close}, so that runs share it. */
  private EmbeddedAsterix held;

  @Override
  public HostRun run(Spec spec, LongConsumer progress) throws IOException {
    if ((long) spec.recordsPerFlush() * (spec.valueBytes() + 64) * 2 > MEMORY_BUDGET / 4) {
      throw new IllegalArgumentException("asterixdb: a flush of " + spec.recordsPerFlush() + " records of "
          + spec.valueBytes() + " bytes does not fit the experiment's memory component; write fewer or smaller records");
    }
    Map<String, String> options = new LinkedHashMap<>(spec.options());
    options.put(LoadConfig.POLICY, asterixName(spec.policy()));
    options.put(AsterixTarget.BATCH, Integer.toString(spec.recordsPerFlush()));
    options.put(AsterixTarget.COMPRESSION, "none");
    LoadConfig config = LoadConfig.defaults(AsterixTarget.NAME, MEMORY_BUDGET, CACHE).withEngineOptions(options);
    Path dir = Path.of(System.getProperty("java.io.tmpdir")); // not used: AsterixDB keeps its own files
    hold(spec.nodes());
    long start = System.nanoTime();
    AsterixTarget t;
    synchronized (DDL) {
      t = AsterixTarget.open(dir, config);
    }
    try {
      EmbeddedAsterix embedded = t.embedded();
      int datasetId = t.policyRow().path("DatasetId").asInt(-1);
      if (datasetId < 0) {
        throw new IOException("asterixdb: no DatasetId in the metadata of " + t.dataset());
      }
      Random random = new Random(42);
      byte[] value = new byte[spec.valueBytes()];
      long key = 0;
      List<String> nodes = embedded.nodes();
      long[] components = new long[nodes.size()];
      int[] max = new int[nodes.size()];
      IoCounter.Counts[] counts = null;
      for (int f = 1; f <= spec.flushes(); f++) {
        if (f == 1) {
          synchronized (DDL) { // the first batch creates the batch file's external dataset
            key = ingest(t, random, value, key, spec.recordsPerFlush());
          }
        } else {
          key = ingest(t, random, value, key, spec.recordsPerFlush());
        }
        embedded.flush(datasetId);
        if (counts == null) {
          counts = new IoCounter.Counts[nodes.size()];
          for (int n = 0; n < nodes.size(); n++) {
            counts[n] = IoCounter.index(nodes.get(n), primary(embedded, t, nodes.get(n)).getIndexIdentifier());
          }
        }
        for (int n = 0; n < nodes.size(); n++) {
          awaitFlushAndMerges(counts[n], f);
          int now = primary(embedded, t, nodes.get(n)).getDiskComponents().size();
          components[n] += now;
          max[n] = Math.max(max[n], now);
        }
        progress.accept(f);
      }
      long elapsed = (System.nanoTime() - start) / 1_000_000;
      Map<String, HostRun> runs = new LinkedHashMap<>();
      for (int n = 0; n < nodes.size(); n++) {
        IoCounter.Counts c = counts[n];
        String host = nodes.size() == 1 ? AsterixTarget.NAME : AsterixTarget.NAME + " " + nodes.get(n);
        runs.put(nodes.get(n), new HostRun(host, t.describePolicy(),
            new ArrayList<>(c.flushSizes), new ArrayList<>(c.mergeSizes), c.mergeNanos.get() / 1_000_000,
            (double) components[n] / spec.flushes(), max[n], elapsed, c.mergeInputs.get(), c.mergeInputBytes.get()));
      }
      return nodes.size() == 1 ? runs.values().iterator().next()
          : HostRun.ofNodes(AsterixTarget.NAME, t.describePolicy() + ", " + nodes.size() + " NCs", runs, elapsed);
    } finally {
      synchronized (DDL) {
        t.close();
      }
    }
  }

  /** Writes {@code records} new records from {@code key} on and sends them; the next key. */
  private static long ingest(AsterixTarget t, Random random, byte[] value, long key, int records) throws IOException {
    long next = key;
    for (int r = 0; r < records; r++) {
      random.nextBytes(value);
      t.put(ByteBuffer.allocate(8).putLong(next++).array(), value);
    }
    t.flushBuffer();
    return next;
  }

  private synchronized void hold(int nodes) throws IOException {
    if (held == null) {
      held = EmbeddedAsterix.acquire(MEMORY_BUDGET, CACHE, PAGE_BYTES, nodes, null);
    } else if (held.nodes().size() != nodes) {
      throw new IllegalArgumentException("asterixdb: the experiment's instance runs " + held.nodes().size()
          + " NCs, not " + nodes);
    }
  }

  /** Two: each run has a dataset of its own and flushes only that dataset. */
  @Override
  public int maxParallelRuns() {
    return 2;
  }

  @Override
  public synchronized void close() {
    if (held != null) {
      held = null;
      EmbeddedAsterix.release();
    }
  }

  /**
   * The name AsterixDB knows an iam-core policy by: IAM's factory for it ({@code constant} is
   * {@code iam-constant} there, beside AsterixDB's own), or AsterixDB's own policy that iam-core
   * models ({@code prefix}, {@code concurrent}).
   */
  static String asterixName(String policy) {
    return AsterixPolicies.all().stream().filter(f -> f.descriptor().name().equals(policy))
        .map(IamMergePolicyFactory::getName).findFirst().orElse(policy);
  }

  /** The dataset's primary index on one NC (its directory is named after the dataset). */
  static ILSMIndex primary(EmbeddedAsterix embedded, AsterixTarget t, String node) throws IOException {
    List<ILSMIndex> indexes = embedded.openIndexes(t.dataverse(), t.dataset(), node);
    for (ILSMIndex i : indexes) {
      if (i.getIndexIdentifier().endsWith("/" + t.dataset())) {
        return i;
      }
    }
    throw new IOException("asterixdb: no primary index of " + t.dataset() + " on " + node + " among " + indexes);
  }

  /** Waits until the index has made {@code flushes} flushes and nothing has run for a moment. */
  static void awaitFlushAndMerges(IoCounter.Counts c, int flushes) throws IOException {
    long deadline = System.nanoTime() + FLUSH_TIMEOUT_NANOS;
    long quietSince = -1;
    long lastMerges = -1;
    while (true) {
      long now = System.nanoTime();
      if (c.flushes.get() > flushes) {
        throw new IOException("asterixdb: the index flushed " + c.flushes.get() + " times for " + flushes
            + " flushes asked: AsterixDB flushed on its own (a memory budget set before, by another store in this JVM?)");
      }
      boolean idle = c.flushes.get() == flushes && c.runningFlushes.get() == 0 && c.runningMerges.get() == 0;
      long merges = c.merges.get();
      if (!idle || merges != lastMerges) {
        quietSince = -1;
      } else if (quietSince < 0) {
        quietSince = now;
      } else if (now - quietSince >= QUIET_NANOS) {
        return;
      }
      lastMerges = merges;
      if (now > deadline) {
        throw new IOException("asterixdb: flush " + flushes + " and its merges did not complete in 120 s");
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("asterixdb: interrupted waiting for flush " + flushes);
      }
    }
  }
}
