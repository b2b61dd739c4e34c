package io.iam.bench.load;

import static io.iam.bench.util.Sizes.human;

import io.iam.core.engine.StallCause;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/** The readable report of {@code iam load}. */
final class LoadReport {

  private LoadReport() {}

  /** One store's block: the load, then each phase that ran, then the engine's counters. */
  static void print(PrintWriter out, RunResult run) {
    LoadResult r = run.load();
    LoadConfig c = r.config();
    LoadMetrics m = r.metrics();
    out.println(f("%s: %,d records, keys %.1f B avg, values %s, %s order, seed %d, %d writer%s", r.tree(),
        r.records(), r.averageKeyBytes(), human(r.valueSize()), r.order().cliName(), r.seed(), r.writers(),
        r.writers() == 1 ? "" : "s"));
    out.println(f("  memtable %s, cache %s, files %s, level base %s x%d, L0 trigger %d, bloom %d bits/key,"
            + " %d background thread%s%s",
        human(c.memtableBytes()), human(c.cacheBytes()), human(c.targetFileBytes()), human(c.levelBaseBytes()),
        c.levelSizeMultiplier(), c.level0CompactionTrigger(), c.bloomBitsPerKey(), c.backgroundThreads(),
        c.backgroundThreads() == 1 ? "" : "s", c.sync() ? ", synced WAL" : ""));
    out.println(f("  throughput           %,.0f ops/s  %.2f MiB/s  (load %.2f s, settle %.2f s; %,.0f ops/s with the settle)",
        r.opsPerSecond(), r.mibPerSecond(), r.loadNanos() / 1e9, r.settleNanos() / 1e9, r.settledOpsPerSecond()));
    latency(out, "put latency", r.latency());
    writes(out, m, r.liveBytes(), "");
    run.overwrite().ifPresent(o -> {
      out.println(f("  overwrites           %,d puts of loaded keys (uniform)  %,.0f ops/s  %.2f MiB/s"
              + "  (overwrite %.2f s, settle %.2f s)",
          o.timed().ops(), o.timed().opsPerSecond(), o.mibPerSecond(), o.timed().seconds(), o.settleNanos() / 1e9));
      latency(out, "overwrite latency", o.timed().latency());
      writes(out, o.metrics(), o.liveBytes(), " over the whole run");
    });
    run.read().ifPresent(rd -> {
      out.println(f("  point reads          %,d %s  %,.0f ops/s  (%.2f s), %,d misses", rd.timed().ops(),
          rd.distribution().cliName(), rd.timed().opsPerSecond(), rd.timed().seconds(), rd.misses()));
      latency(out, "read latency", rd.timed().latency());
    });
    run.scan().ifPresent(s -> {
      out.println(f("  scans                %,d x %,d entries, %s starts  %,.0f ops/s  (%.2f s),"
              + " %,d entries read, %,d short at the end",
          s.timed().ops(), s.length(), s.distribution().cliName(), s.timed().opsPerSecond(), s.timed().seconds(),
          s.entries(), s.shortScans()));
      latency(out, "scan latency", s.timed().latency());
    });
    engine(out, run.lastEngine(), run.lastPhase());
    out.println();
  }

  private static void latency(PrintWriter out, String what, Latency l) {
    out.println(f("  %-20s p50 %,.1f us  p99 %,.1f us  p99.9 %,.1f us  max %,.1f us", what,
        l.p50Micros(), l.p99Micros(), l.p999Micros(), l.maxMicros()));
  }

  /** Write and space amplification, disk size and the per-level table of one write phase. */
  private static void writes(PrintWriter out, LoadMetrics m, long liveBytes, String span) {
    out.println(f("  write amplification  %.2f%s  (flushes %.2f + compactions %.2f of %s put; WAL excluded)",
        m.writeAmplification(), span, ratio(m.flushBytes(), m.userBytes()),
        ratio(m.compactionBytesWritten(), m.userBytes()), human(m.userBytes())));
    out.println(f("  space amplification  %.2f  (disk %s in %d files / live data %s)",
        LoadResult.spaceAmplification(m.diskBytes(), liveBytes), human(m.diskBytes()), m.files(), human(liveBytes)));
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

  /** The tree's shape as the engine counts it, if it counts any of it. */
  private static void engine(PrintWriter out, EngineCounters e, String phase) {
    List<String> tree = new ArrayList<>();
    addIfPresent(tree, "mixed level m %s", e.get(EngineCounters.MIXED_LEVEL));
    addIfPresent(tree, "cap k %s", e.get(EngineCounters.MAX_SEQUENCES));
    addIfPresent(tree, "depth %s", e.get(EngineCounters.DEPTH));
    seconds(tree, "writers stalled %.1f s" + stallCauses(e), e.get(EngineCounters.STALL_MICROS));
    seconds(tree, "slowed %.1f s", e.get(EngineCounters.SLOWDOWN_MICROS));
    // HBase's own figures are shown even when zero: "nothing was held back" is the news.
    Number blocked = e.get(EngineCounters.HBASE_UPDATES_BLOCKED_MICROS);
    if (blocked != null) {
      tree.add(f("HBase updatesBlockedTime %.1f s", blocked.doubleValue() / 1e6));
    }
    addIfPresent(tree, "HBase blockedRequestCount %s", e.get(EngineCounters.HBASE_BLOCKED_REQUESTS));
    seconds(tree, "flushes waited for the tree %.1f s", e.get(EngineCounters.FLUSH_WAIT_MICROS));
    Number gcMicros = e.get(EngineCounters.GC_PAUSE_MICROS);
    if (gcMicros != null) {
      Number longest = e.get(EngineCounters.GC_LONGEST_MICROS);
      tree.add(f("JVM GC %.1f s in %s collections", gcMicros.doubleValue() / 1e6, number(e.get(EngineCounters.GC_COUNT)))
          + (longest == null ? "" : f(", the longest %.0f ms", longest.doubleValue() / 1e3)));
    }
    Number flushedWa = e.get(EngineCounters.FLUSHED_WRITE_AMPLIFICATION);
    Number simulatedWa = e.get(EngineCounters.SIMULATED_WRITE_AMPLIFICATION);
    if (flushedWa != null && simulatedWa != null) {
      tree.add(f("wrote %.2f x its flushed bytes where the simulator writes %.2f on the same flushes (%+.1f%%)",
          flushedWa.doubleValue(), simulatedWa.doubleValue(),
          100 * (flushedWa.doubleValue() / simulatedWa.doubleValue() - 1)));
    }
    e.sequencesPerScan().ifPresent(s -> tree.add(f("%.2f sequences per scan", s)));
    e.uncachedSequencesPerScan().ifPresent(s -> {
      tree.add(f("%.2f of them uncached", s));
      addIfPresent(tree, "at most %s uncached on one level", e.get(EngineCounters.SCAN_MAX_UNCACHED));
    });
    addIfPresent(tree, "protected blocks demoted for want of room %s", e.get(EngineCounters.PROTECTED_OVERFLOWS));
    List<EngineCounters.Level> levels = e.levels();
    if (tree.isEmpty() && levels.isEmpty()) {
      return;
    }
    out.println(f("  engine (after %s)%s%s", phase, tree.isEmpty() ? "" : ": ", String.join(", ", tree)));
    String waits = stallWaits(e);
    if (!waits.isEmpty()) {
      out.println("  writes that stood still: " + waits);
    }
    if (!levels.isEmpty()) {
      out.println("  level  nodes  sequences  mean-seq  max-seq");
      for (EngineCounters.Level l : levels) {
        out.println(f("  L%-4d %6s %10s %9s %8s", l.level(), number(l.nodes()), number(l.sequences()),
            number(l.meanSequences()), number(l.maxSequences())));
      }
    }
  }

  /** Adds a time counter in microseconds, as seconds, if it is present and not zero. */
  /** " (level0-full 1.2 s, ...)": the causes of the writers' stall, where the engine counts them. */
  private static String stallCauses(EngineCounters e) {
    List<String> causes = new ArrayList<>();
    e.stallMicrosByCause().forEach((cause, micros) -> causes.add(f("%s %.1f s", cause.key(), micros / 1e6)));
    return causes.isEmpty() ? "" : " (" + String.join(", ", causes).replace("%", "%%") + ")";
  }

  /**
   * "flush-running 1,204 (310 of them ≥ 10 ms, 12 ≥ 100 ms, 0 ≥ 500 ms), the longest 312 ms; ...":
   * per cause, how many writes stood still for it and for how long; empty if the engine does not say.
   */
  static String stallWaits(EngineCounters e) {
    List<String> causes = new ArrayList<>();
    for (EngineCounters.StallWaits w : e.stallWaitsByCause()) {
      List<String> bounds = new ArrayList<>();
      for (int b = 0; b < w.atLeast().size(); b++) {
        bounds.add(f("%s%s ≥ %d ms", number(w.atLeast().get(b)), b == 0 ? " of them" : "",
            StallCause.WAIT_BOUNDS_MILLIS.get(b)));
      }
      causes.add(f("%s %s (%s), the longest %.0f ms", w.cause().key(), number(w.waits()), String.join(", ", bounds),
          w.longestMicros() / 1e3));
    }
    return String.join("; ", causes);
  }

  private static void seconds(List<String> parts, String format, Number micros) {
    if (micros != null && micros.longValue() > 0) {
      parts.add(f(format, micros.doubleValue() / 1e6));
    }
  }

  private static void addIfPresent(List<String> parts, String format, Number value) {
    if (value != null) {
      parts.add(f(format, number(value)));
    }
  }

  /** A counter for people: whole numbers with separators, fractions with two decimals, "-" if absent. */
  private static String number(Number n) {
    if (n == null) {
      return "-";
    }
    if (n instanceof Double || n instanceof Float) {
      return f("%.2f", n.doubleValue());
    }
    return f("%,d", n.longValue());
  }

  /** The ratios of a {@code --vs} run: ours / peer, for the phases that ran. */
  static void printRatios(PrintWriter out, RunResult ours, RunResult peer) {
    List<String> parts = new ArrayList<>();
    for (Ratio ratio : Ratio.of(ours, peer)) {
      parts.add(ratio.label() + " " + ratioText(ratio.value()));
    }
    out.println(ours.tree() + " / " + peer.tree() + ": " + String.join(", ", parts));
  }

  /**
   * One figure of ours over the peer's; NaN where the peer's figure is 0.
   *
   * @param json its name in the JSON {@code ratios}
   * @param label its name in the text
   */
  record Ratio(String json, String label, double value) {

    /**
     * The ratios of a {@code --vs} run: load throughput (without and with the settle), write
     * amplification over the whole run,
     * space amplification after the last write phase, then throughput of each phase that ran.
     */
    static List<Ratio> of(RunResult ours, RunResult peer) {
      List<Ratio> ratios = new ArrayList<>();
      ratios.add(of("opsPerSecond", "throughput", ours, peer, r -> r.load().opsPerSecond()));
      ratios.add(of("settledOpsPerSecond", "throughput with the settle", ours, peer,
          r -> r.load().settledOpsPerSecond()));
      ratios.add(of("writeAmplification", "write amplification", ours, peer, RunResult::writeAmplification));
      ratios.add(of("spaceAmplification", "space amplification", ours, peer, RunResult::spaceAmplification));
      phase(ratios, "overwriteOpsPerSecond", "overwrite throughput", ours, peer, r -> r.overwrite()
          .map(OverwriteResult::timed).orElse(null));
      phase(ratios, "readOpsPerSecond", "read ops/s", ours, peer, r -> r.read().map(ReadResult::timed).orElse(null));
      phase(ratios, "scanOpsPerSecond", "scan ops/s", ours, peer, r -> r.scan().map(ScanResult::timed).orElse(null));
      return ratios;
    }

    private static Ratio of(String json, String label, RunResult ours, RunResult peer,
        ToDoubleFunction<RunResult> figure) {
      return new Ratio(json, label, ratio(figure.applyAsDouble(ours), figure.applyAsDouble(peer)));
    }

    /** The ratio of a phase's ops/s, if both stores ran it. */
    private static void phase(List<Ratio> ratios, String json, String label, RunResult ours, RunResult peer,
        Function<RunResult, Timed> timed) {
      Timed a = timed.apply(ours);
      Timed b = timed.apply(peer);
      if (a != null && b != null) {
        ratios.add(new Ratio(json, label, ratio(a.opsPerSecond(), b.opsPerSecond())));
      }
    }
  }

  static double ratio(double a, double b) {
    return b == 0 ? Double.NaN : a / b;
  }

  /**
   * A ratio with three decimals: targets are stated to two (0.55×, 1.5×), and two decimals would
   * print 0.5507 as "0.55x", which reads as met.
   */
  static String ratioText(double r) {
    return Double.isNaN(r) ? "n/a" : f("%.3fx", r);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
