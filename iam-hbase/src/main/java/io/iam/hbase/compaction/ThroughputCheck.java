package io.iam.hbase.compaction;

import io.iam.core.policy.MergePolicy;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.regionserver.throttle.CompactionThroughputControllerFactory;
import org.apache.hadoop.hbase.regionserver.throttle.PressureAwareCompactionThroughputController;
import org.slf4j.Logger;

/**
 * Whether the region server's compaction throughput limit holds a depth-bounded policy's merges
 * near its lower bound. Reads a {@link Configuration}, decides and returns the note; {@link #logOnce}
 * logs it once per region server.
 *
 * <p>HBase's default controller ({@link PressureAwareCompactionThroughputController}) lets all of a
 * region server's compactions write between {@code hbase.hstore.compaction.throughput.lower.bound}
 * (50 MB/s) and {@code higher.bound} (100 MB/s), moving up with the highest compaction pressure of
 * its stores. In HBase's default store engine a store's pressure is its file count past {@code
 * hbase.hstore.compaction.min}, over the room up to {@code hbase.hstore.blockingStoreFiles}. A policy
 * that keeps at most k + 1 files therefore never lifts the limit far above the lower bound, while
 * it rewrites several times what is flushed: its merges fall behind, the store reaches the blocking
 * count anyway and HBase holds its flushes. IAM's store engine reports a pressure of 0 until a
 * level-1 node passes C_t, so its tree steps run at the lower bound too. An operator who chooses
 * either needs to know which property sets that limit.
 */
public final class ThroughputCheck {

  private static final String PRESSURE_AWARE = PressureAwareCompactionThroughputController.class.getName();
  /** HBase's "MB" in its throughput settings and logs. */
  private static final double MIB = 1024.0 * 1024;
  private static final long DEFAULT_LOWER = 50L * 1024 * 1024;
  private static final long DEFAULT_HIGHER = 100L * 1024 * 1024;

  /** The limit is the region server's: it is noted once per JVM, by the first store that meets it. */
  private static final AtomicBoolean NOTED = new AtomicBoolean();

  private ThroughputCheck() {}

  /** Logs {@code note} as a warning for {@code store}, unless a store of this JVM did already. */
  public static void logOnce(Logger log, String store, String note) {
    if (!NOTED.getAndSet(true)) {
      log.warn("Store {}: {}", store, note);
    }
  }

  /**
   * The note for a store running {@code policy} under {@code conf}, or empty when the limit does not
   * depend on the file count (another controller, an unbounded policy).
   *
   * @param minFilesToCompact the store's {@code hbase.hstore.compaction.min}
   * @param blockingStoreFiles the store's {@code hbase.hstore.blockingStoreFiles}
   */
  public static Optional<String> note(MergePolicy policy, Configuration conf, int minFilesToCompact,
      long blockingStoreFiles) {
    int k = policy.maxComponents();
    if (k == Integer.MAX_VALUE || blockingStoreFiles <= minFilesToCompact) {
      return Optional.empty();
    }
    double pressure = Math.max(0, Math.min(1, (k + 1.0 - minFilesToCompact) / (blockingStoreFiles - minFilesToCompact)));
    return note(conf, String.format(Locale.ROOT, "a %s store with at most %d files reaches a pressure of %.2f",
        policy.name(), k + 1, pressure), pressure, String.format(Locale.ROOT,
        "the store reaches hbase.hstore.blockingStoreFiles=%d and HBase holds its flushes", blockingStoreFiles));
  }

  /**
   * The note for a store run by IAM's store engine, whose compaction pressure is 0 while level 1
   * holds less than C_t; empty under another controller.
   */
  public static Optional<String> noteForTree(Configuration conf) {
    return note(conf, "an IAM tree reports a pressure of 0 until a level-1 node passes C_t", 0,
        "level 1 fills and memstore flushes wait for the tree");
  }

  private static Optional<String> note(Configuration conf, String store, double pressure, String fallingBehind) {
    String controller = conf.get(CompactionThroughputControllerFactory.HBASE_THROUGHPUT_CONTROLLER_KEY,
        PRESSURE_AWARE);
    if (!controller.equals(PRESSURE_AWARE)) {
      return Optional.empty();
    }
    long lower = conf.getLong(
        PressureAwareCompactionThroughputController.HBASE_HSTORE_COMPACTION_MAX_THROUGHPUT_LOWER_BOUND, DEFAULT_LOWER);
    long higher = conf.getLong(
        PressureAwareCompactionThroughputController.HBASE_HSTORE_COMPACTION_MAX_THROUGHPUT_HIGHER_BOUND, DEFAULT_HIGHER);
    double limit = lower + (higher - lower) * pressure;
    return Optional.of(String.format(Locale.ROOT,
        "this region server limits all its compactions to %.0f to %.0f MB/s by compaction pressure"
            + " (hbase.regionserver.throughput.controller=%s), and %s, so its merges share at most %.0f MB/s;"
            + " if they fall behind, %s. Raise %s, or set hbase.regionserver.throughput.controller=%s",
        lower / MIB, higher / MIB, controller, store, limit / MIB, fallingBehind,
        PressureAwareCompactionThroughputController.HBASE_HSTORE_COMPACTION_MAX_THROUGHPUT_LOWER_BOUND,
        "org.apache.hadoop.hbase.regionserver.throttle.NoLimitThroughputController"));
  }
}
