package io.iam.bench.projections;

import static io.iam.bench.util.Sizes.human;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.bench.load.IoCounters;
import io.iam.bench.load.LoadConfig;
import io.iam.bench.load.LoadMetrics;
import io.iam.bench.util.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outputs of {@code iam projections}: a table for people, one JSON line, and two CSV files
 * ({@value #LOAD_CSV}: a row per store and projection; {@value #QUERIES_CSV}: a row per store,
 * projection and Table 4 row). A counter a store does not keep prints as "-", is null in JSON and
 * empty in CSV.
 */
final class ProjectionsReport {

  static final String LOAD_CSV = "load.csv";
  static final String QUERIES_CSV = "queries.csv";

  private static final double MIB = 1024.0 * 1024.0;

  private ProjectionsReport() {}

  static void print(PrintWriter out, ProjectionsResult r) {
    LoadConfig c = r.config();
    out.println(f("projections: %,d trips per projection, disorder %,d records, seed %d; memtable %s, cache %s,"
            + " files %s, level base %s x%d, L0 trigger %d, %d background thread(s); %d queries per Table 4 row",
        r.records(), r.disorder(), r.seed(), human(c.memtableBytes()), human(c.cacheBytes()),
        human(c.targetFileBytes()), human(c.levelBaseBytes()), c.levelSizeMultiplier(), c.level0CompactionTrigger(),
        c.backgroundThreads(), r.queriesPerRow()));
    out.println("stream, as the keys arrive:");
    for (Projection p : Projection.values()) {
      out.println(f("  %s %-14s %s", p.label(), p.attribute(), r.stream().get(p).sortedness()));
    }
    out.println();
    out.println("load: puts then settle, one store per projection; bytes from the store's counters");
    out.println(f("  %-18s %-4s %-14s %8s %9s %11s %6s %12s %7s %6s %9s", "store", "proj", "key", "load s", "user MiB",
        "written MiB", "WA", "merge rd MiB", "merges", "files", "disk MiB"));
    for (Map.Entry<String, List<ProjectionFigures>> store : r.stores().entrySet()) {
      long nanos = 0;
      long user = 0;
      long written = 0;
      long read = 0;
      long merges = 0;
      for (ProjectionFigures p : store.getValue()) {
        LoadMetrics m = p.metrics();
        out.println(f("  %-18s %-4s %-14s %8.2f %9.1f %11.1f %6.2f %12s %7s %6d %9.1f", store.getKey(),
            p.projection().label(), p.projection().attribute(), p.totalNanos() / 1e9, m.userBytes() / MIB,
            m.bytesWritten() / MIB, m.writeAmplification(), mib(p.io().compactionBytesRead()),
            count(p.io().compactions()), m.files(), m.diskBytes() / MIB));
        nanos += p.totalNanos();
        user += m.userBytes();
        written += m.bytesWritten();
        read = sum(read, p.io().compactionBytesRead());
        merges = sum(merges, p.io().compactions());
      }
      out.println(f("  %-18s %-4s %-14s %8.2f %9.1f %11.1f %6.2f %12s %7s", store.getKey(), "all", "",
          nanos / 1e9, user / MIB, written / MIB, (double) written / user, mib(read), count(merges)));
    }
    out.println();
    out.println("range queries at Table 4's selectivities; I/O = data blocks read from table files (block-cache"
        + " misses)");
    out.println(f("  %-18s %-4s %-5s %11s %11s %10s %13s %13s %9s", "store", "proj", "query", "selectivity",
        "paper's", "key range", "records/query", "blocks/query", "ms/query"));
    for (Map.Entry<String, List<ProjectionFigures>> store : r.stores().entrySet()) {
      for (ProjectionFigures p : store.getValue()) {
        for (QueryFigures q : p.queries()) {
          out.println(f("  %-18s %-4s %-5s %11.4f %11.3f %10.4f %13.1f %13s %9.2f", store.getKey(),
              p.projection().label(), q.row().name(), q.selectivity(), q.row().selectivity(),
              relativeKeyRange(r, p.projection(), q), q.returnedPerQuery(), perQuery(q), q.millisPerQuery()));
        }
      }
    }
    out.flush();
  }

  /** The key range relative to the attribute's whole span, the scale of Table 4's key-range column. */
  static double relativeKeyRange(ProjectionsResult r, Projection p, QueryFigures q) {
    long span = r.stream().get(p).span();
    return span == 0 ? Double.NaN : q.keyRangePerQuery() / span;
  }

  static String json(ProjectionsResult r) {
    ObjectNode o = Json.object();
    o.put("records", r.records());
    o.put("seed", r.seed());
    o.put("disorder", r.disorder());
    o.put("queriesPerRow", r.queriesPerRow());
    r.config().putJson(o.putObject("config"));
    Json.array(o, "stream", List.of(Projection.values()), (s, p) -> {
      Sortedness st = r.stream().get(p).sortedness();
      s.put("projection", p.label()).put("key", p.attribute()).put("inversionFraction", st.inversionFraction())
          .put("maxDisplacement", st.maxDisplacement()).put("meanRunLength", st.meanRunLength())
          .put("span", r.stream().get(p).span());
    });
    Json.array(o, "stores", r.stores().entrySet(), (s, store) -> {
      s.put("store", store.getKey());
      Json.array(s, "projections", store.getValue(), (j, p) -> projection(j, r, p));
    });
    return Json.line(o);
  }

  private static void projection(ObjectNode j, ProjectionsResult r, ProjectionFigures p) {
    LoadMetrics m = p.metrics();
    j.put("projection", p.projection().label());
    j.put("key", p.projection().attribute());
    j.put("records", p.records());
    j.put("loadMillis", p.loadNanos() / 1_000_000);
    j.put("settleMillis", p.settleNanos() / 1_000_000);
    j.put("userBytes", m.userBytes());
    j.put("flushBytes", m.flushBytes());
    j.put("compactionBytesWritten", m.compactionBytesWritten());
    j.put("bytesWritten", m.bytesWritten());
    j.put("writeAmplification", m.writeAmplification());
    known(j, "compactionBytesRead", p.io().compactionBytesRead());
    known(j, "compactions", p.io().compactions());
    j.put("diskBytes", m.diskBytes());
    j.put("files", m.files());
    m.putLevelsJson(j);
    Json.array(j, "queries", p.queries(), (q, f) -> {
      q.put("query", f.row().name());
      q.put("paperKeyRange", f.row().paperKeyRange());
      q.put("paperSelectivity", f.row().selectivity());
      q.put("queries", f.queries());
      q.put("expected", f.expected());
      q.put("returned", f.returned());
      q.put("selectivity", f.selectivity());
      q.put("keyRangePerQuery", f.keyRangePerQuery());
      Json.putFinite(q, "relativeKeyRange", relativeKeyRange(r, p.projection(), f));
      known(q, "dataBlocks", f.dataBlocks());
      Json.putFinite(q, "dataBlocksPerQuery", f.blocksPerQuery());
      q.put("millis", f.nanos() / 1_000_000.0);
    });
  }

  /** Writes the two CSV files into {@code dir}; returns them. */
  static List<Path> csv(Path dir, ProjectionsResult r) throws IOException {
    List<String> load = new ArrayList<>();
    load.add("store,projection,key,records,load_ms,settle_ms,user_bytes,flush_bytes,compaction_bytes_written,"
        + "bytes_written,write_amplification,compaction_bytes_read,compactions,files,disk_bytes");
    List<String> queries = new ArrayList<>();
    queries.add("store,projection,query,paper_key_range,paper_selectivity,queries,expected,returned,selectivity,"
        + "key_range_per_query,data_blocks,data_blocks_per_query,ms_per_query");
    for (Map.Entry<String, List<ProjectionFigures>> store : r.stores().entrySet()) {
      for (ProjectionFigures p : store.getValue()) {
        LoadMetrics m = p.metrics();
        load.add(String.join(",", store.getKey(), p.projection().label(), p.projection().attribute(),
            "" + p.records(), "" + p.loadNanos() / 1_000_000, "" + p.settleNanos() / 1_000_000, "" + m.userBytes(),
            "" + m.flushBytes(), "" + m.compactionBytesWritten(), "" + m.bytesWritten(),
            f("%.4f", m.writeAmplification()), cell(p.io().compactionBytesRead()), cell(p.io().compactions()),
            "" + m.files(), "" + m.diskBytes()));
        for (QueryFigures q : p.queries()) {
          queries.add(String.join(",", store.getKey(), p.projection().label(), q.row().name(),
              "" + q.row().paperKeyRange(), "" + q.row().selectivity(), "" + q.queries(), "" + q.expected(),
              "" + q.returned(), f("%.6f", q.selectivity()), f("%.1f", q.keyRangePerQuery()), cell(q.dataBlocks()),
              Double.isNaN(q.blocksPerQuery()) ? "" : f("%.2f", q.blocksPerQuery()), f("%.3f", q.millisPerQuery())));
        }
      }
    }
    return List.of(Files.write(dir.resolve(LOAD_CSV), load, StandardCharsets.UTF_8),
        Files.write(dir.resolve(QUERIES_CSV), queries, StandardCharsets.UTF_8));
  }

  private static void known(ObjectNode o, String name, long value) {
    if (value == IoCounters.UNKNOWN) {
      o.putNull(name);
    } else {
      o.put(name, value);
    }
  }

  private static String cell(long value) {
    return value == IoCounters.UNKNOWN ? "" : Long.toString(value);
  }

  private static String count(long value) {
    return value == IoCounters.UNKNOWN ? "-" : f("%,d", value);
  }

  private static String mib(long bytes) {
    return bytes == IoCounters.UNKNOWN ? "-" : f("%.1f", bytes / MIB);
  }

  private static String perQuery(QueryFigures q) {
    return Double.isNaN(q.blocksPerQuery()) ? "-" : f("%.1f", q.blocksPerQuery());
  }

  /** {@code a + b}, unknown if either is. */
  private static long sum(long a, long b) {
    return a == IoCounters.UNKNOWN || b == IoCounters.UNKNOWN ? IoCounters.UNKNOWN : a + b;
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
