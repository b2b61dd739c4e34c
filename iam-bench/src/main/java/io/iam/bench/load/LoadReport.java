package io.iam.bench.load;

import static io.iam.bench.util.Sizes.human;

import java.io.PrintWriter;
import java.util.Locale;

/** The readable report of {@code iam load}. */
final class LoadReport {

  private LoadReport() {}

  /** One store's block. */
  static void print(PrintWriter out, LoadResult r) {
    LoadConfig c = r.config();
    LoadMetrics m = r.metrics();
    out.println(f("%s: %,d records, keys %.1f B avg, values %s, %s order, seed %d", r.tree(), r.records(),
        r.averageKeyBytes(), human(r.valueSize()), r.order().cliName(), r.seed()));
    out.println(f("  memtable %s, cache %s, files %s, level base %s x%d, L0 trigger %d, bloom %d bits/key,"
            + " %d background thread%s%s",
        human(c.memtableBytes()), human(c.cacheBytes()), human(c.targetFileBytes()), human(c.levelBaseBytes()),
        c.levelSizeMultiplier(), c.level0CompactionTrigger(), c.bloomBitsPerKey(), c.backgroundThreads(),
        c.backgroundThreads() == 1 ? "" : "s", c.sync() ? ", synced WAL" : ""));
    out.println(f("  throughput           %,.0f ops/s  %.2f MiB/s  (load %.2f s, settle %.2f s)",
        r.opsPerSecond(), r.mibPerSecond(), r.loadNanos() / 1e9, r.settleNanos() / 1e9));
    Latency l = r.latency();
    out.println(f("  put latency          p50 %,.1f us  p99 %,.1f us  p99.9 %,.1f us  max %,.1f us",
        l.p50Micros(), l.p99Micros(), l.p999Micros(), l.maxMicros()));
    out.println(f("  write amplification  %.2f  (flushes %.2f + compactions %.2f; WAL excluded)",
        m.writeAmplification(), ratio(m.flushBytes(), m.userBytes()),
        ratio(m.compactionBytesWritten(), m.userBytes())));
    out.println(f("  disk                 %s in %d files (user data %s)", human(m.diskBytes()), m.files(),
        human(m.userBytes())));
    out.println();
    out.println("  level  files        size     written  write-amp");
    for (LevelMetrics level : m.levels()) {
      out.println(f("  L%-4d %6d %11s %11s %10.2f", level.level(), level.files(), human(level.bytes()),
          human(level.bytesWritten()), level.writeAmplification()));
    }
    out.println(f("  total %6d %11s %11s %10.2f", m.files(), human(m.diskBytes()), human(m.bytesWritten()),
        m.writeAmplification()));
    out.println();
  }

  /** The ratios of a {@code --vs} run: ours / peer. */
  static void printRatios(PrintWriter out, LoadResult ours, LoadResult peer, Ratios ratios) {
    out.println(f("%s / %s: throughput %sx, write amplification %sx", ours.tree(), peer.tree(),
        ratioText(ratios.opsPerSecond()), ratioText(ratios.writeAmplification())));
  }

  /** ours / peer for throughput and write amplification; NaN where the peer's figure is 0. */
  record Ratios(double opsPerSecond, double writeAmplification) {
    static Ratios of(LoadResult ours, LoadResult peer) {
      return new Ratios(ratio(ours.opsPerSecond(), peer.opsPerSecond()),
          ratio(ours.metrics().writeAmplification(), peer.metrics().writeAmplification()));
    }
  }

  static double ratio(double a, double b) {
    return b == 0 ? Double.NaN : a / b;
  }

  private static String ratioText(double r) {
    return Double.isNaN(r) ? "n/a " : f("%.2f", r);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
