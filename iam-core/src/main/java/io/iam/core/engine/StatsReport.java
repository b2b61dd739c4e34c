package io.iam.core.engine;

import io.iam.core.engine.minmax.MinMaxEngine;
import io.iam.core.engine.node.NodeTree;
import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.stack.StackEngine;
import io.iam.core.manifest.FileMeta;
import io.iam.core.tree.GearPicker;
import java.util.LinkedHashMap;
import java.util.List;
import io.iam.core.manifest.NodeMeta;
import java.util.Map;

/** Renders a store's statistics for people (a table) and for programs (a map). */
final class StatsReport {

  private StatsReport() {}

  static String format(IamStore store) {
    Statistics s = store.statistics();
    StoreCounters c = s.counters();
    List<List<FileMeta>> levels = store.levels();
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%-6s %7s %12s %12s %12s %12s %8s%n",
        "Level", "Files", "Size", "Read", "Written", "Moved", "W-Amp"));
    for (int level = 0; level < levels.size(); level++) {
      long size = levels.get(level).stream().mapToLong(FileMeta::fileSize).sum();
      long written = s.bytesWrittenTo(level);
      if (levels.get(level).isEmpty() && written == 0 && s.movedBytes(level) == 0) {
        continue;
      }
      sb.append(String.format("L%-5d %7d %12s %12s %12s %12s %8.2f%n", level, levels.get(level).size(),
          human(size), human(s.compactionBytesRead(level)), human(written), human(s.movedBytes(level)),
          s.writeAmplification(level)));
    }
    sb.append(String.format("%-6s %7d %12s %12s %12s %12s %8.2f%n", "Sum",
        levels.stream().mapToInt(List::size).sum(), human(store.diskBytes()), "",
        human(s.flushBytes() + s.compactionBytesWritten()), "", s.writeAmplification()));
    NodeTree tree = StoreTrees.nodeTree(store);
    if (tree != null) {
      sb.append(String.format("%-6s %7s %10s %10s %10s%n", "Level", "Nodes", "Sequences", "Mean seq", "Max seq"));
      List<List<NodeMeta>> nodes = store.nodes();
      for (int level = 1; level <= store.depth(); level++) {
        List<NodeMeta> l = nodes.get(level);
        sb.append(String.format("L%-5d %7d %10d %10.2f %10d%n", level, l.size(),
            l.stream().mapToInt(NodeMeta::sequences).sum(),
            l.stream().mapToInt(NodeMeta::sequences).average().orElse(0),
            l.stream().mapToInt(NodeMeta::sequences).max().orElse(0)));
      }
      sb.append(String.format("tree %s, depth %d, %s%n", StoreOptions.TREE.type().format(store.tree()), store.depth(),
          describe(tree.currentMode(), store.depth())));
    }
    io.iam.core.tree.lsbm.CompactionBuffer buffer = StoreTrees.compactionBuffer(store);
    if (store.tree() == TreeKind.LSBM) {
      if (StoreTrees.gearLevels(store)) {
        StringBuilder halves = new StringBuilder("gear levels:");
        int last = GearPicker.lastLogical(levels.size());
        for (int i = 1; i <= last; i++) {
          halves.append(" C").append(i).append(" = L").append(GearPicker.in(i));
          if (i < last) {
            halves.append(", C").append(i).append("' = L").append(GearPicker.out(i)).append(';');
          }
        }
        sb.append(halves).append(String.format("%n"));
      }
      for (int level = 1; level < buffer.numLevels(); level++) {
        if (!buffer.files(level).isEmpty() || buffer.frozen(level)) {
          sb.append(String.format("B%-5d %7d %12s%s%n", level, buffer.files(level).size(), human(buffer.bytes(level)),
              buffer.frozen(level) ? "  frozen" : ""));
        }
      }
      sb.append(String.format("buffer: lookups %d, hits %d, fallbacks %d, appended %d, frozen merges %d, retired %d, paced %d, trimmed %d in %d trims%n",
          c.bufferLookups.sum(), s.bufferHits(), c.bufferFallbacks.sum(), s.bufferAppends(), s.bufferFrozenMerges(), s.bufferRetired(),
          s.bufferPaced(), s.bufferTrimmed(), c.bufferTrims.sum()));
    }
    MinMaxEngine minmax = StoreTrees.minmax(store);
    if (minmax != null) {
      List<FileMeta> buckets = store.levels().get(0);
      sb.append(String.format("min-max: %d buckets (%s), %d cached entries, at most %d buckets share a key; "
              + "written %d, early evictions %d, sorts %d; buckets per point read %.2f, per range read %.2f%n",
          buckets.size(), human(buckets.stream().mapToLong(FileMeta::fileSize).sum()), minmax.cachedEntries(),
          minmax.maxOverlap(), c.minmaxBuckets.sum(), c.minmaxForcedEvictions.sum(), c.minmaxSorts.sum(),
          s.asMap().get("minmax.buckets-per-point-read").doubleValue(),
          s.asMap().get("minmax.buckets-per-range-read").doubleValue()));
    }
    StackEngine stack = StoreTrees.stack(store);
    if (stack != null) {
      List<FileMeta> runs = store.levels().get(0);
      sb.append(String.format("stack: policy %s, %d runs (%s), the largest holding %d flushes; %d merges read %d runs%n",
          stack.policy(), runs.size(), human(runs.stream().mapToLong(FileMeta::fileSize).sum()), stack.largestRunFlushes(),
          c.stackMerges.sum(), c.stackRunsMerged.sum()));
    }
    sb.append(String.format("user %s, log %s, write-amp %.2f (with log %.2f)%n",
        human(s.userBytes()), human(s.walBytes()), s.writeAmplification(), s.writeAmplificationWithWal()));
    sb.append(String.format("flushes %d, compactions %d (+%d moves), failures %d/%d, stall %.1f ms, slowdown %.1f ms%n",
        c.flushes.sum(), c.compactions.sum(), c.trivialMoves.sum(), c.flushFailures.sum(),
        c.compactionFailures.sum(), s.stallMicros() / 1000.0, s.slowdownMicros() / 1000.0));
    sb.append(String.format("block cache: %s of %s, hits %d, misses %d; bloom: checked %d, useful %d, false positives %d%n",
        human(store.blockCache().usedBytes()), human(store.blockCache().capacityBytes()),
        store.blockCache().hits(), store.blockCache().misses(), c.bloomChecked.sum(), c.bloomUseful.sum(),
        c.bloomFalsePositive.sum()));
    if (store.blockCache() instanceof io.iam.core.cache.PriorityBlockCache pool) {
      sb.append(String.format("protected pool: %s of %s, hits %d, misses %d, demotions %d (%d for want of room)%n",
          human(pool.protectedUsedBytes()), human(pool.protectedCapacityBytes()), pool.protectedHits(),
          pool.protectedMisses(), pool.demotions(), pool.overflows()));
    }
    return sb.toString();
  }

  static Map<String, Number> properties(IamStore store) {
    Map<String, Number> m = new LinkedHashMap<>(store.statistics().asMap());
    m.put("manifest.rolls", store.manifestRolls());
    List<List<FileMeta>> levels = store.levels();
    for (int level = 0; level < levels.size(); level++) {
      List<FileMeta> files = levels.get(level);
      List<Long> numbers = files.stream().map(FileMeta::fileNumber).toList();
      m.put("level." + level + ".files", files.size());
      m.put("level." + level + ".sequences", files.stream().mapToInt(FileMeta::sequenceCount).sum());
      m.put("level." + level + ".bytes", files.stream().mapToLong(FileMeta::fileSize).sum());
      m.put("level." + level + ".cached-blocks", numbers.stream().mapToLong(store.blockCache()::residentBlocks).sum());
      m.put("level." + level + ".cached-bytes", numbers.stream().mapToLong(store.blockCache()::residentBytes).sum());
    }
    NodeTree tree = StoreTrees.nodeTree(store);
    if (tree != null) {
      List<List<NodeMeta>> nodes = store.nodes();
      m.put("tree.depth", store.depth());
      m.put("tree.mixed-level", tree.currentMode().m() == Integer.MAX_VALUE ? store.depth() + 1 : tree.currentMode().m());
      m.put("tree.max-sequences", tree.currentMode().k());
      for (int level = 1; level <= store.depth(); level++) {
        List<NodeMeta> l = nodes.get(level);
        m.put("level." + level + ".nodes", l.size());
        m.put("level." + level + ".mean-sequences", l.isEmpty() ? 0.0 : l.stream().mapToInt(NodeMeta::sequences).average().orElse(0));
        m.put("level." + level + ".max-sequences", l.stream().mapToInt(NodeMeta::sequences).max().orElse(0));
      }
    }
    io.iam.core.tree.lsbm.CompactionBuffer buffer = StoreTrees.compactionBuffer(store);
    for (int level = 1; level < buffer.numLevels() && store.tree() == TreeKind.LSBM; level++) {
      List<Long> numbers = buffer.files(level).stream().map(b -> b.fileNumber()).toList();
      m.put("buffer." + level + ".files", numbers.size());
      m.put("buffer." + level + ".bytes", buffer.bytes(level));
      m.put("buffer." + level + ".cached-blocks", numbers.stream().mapToLong(store.blockCache()::residentBlocks).sum());
      m.put("buffer." + level + ".frozen", buffer.frozen(level) ? 1 : 0);
    }
    MinMaxEngine minmax = StoreTrees.minmax(store);
    if (minmax != null) {
      m.put("minmax.buckets", levels.get(0).size());
      m.put("minmax.bucket-bytes", levels.get(0).stream().mapToLong(FileMeta::fileSize).sum());
      m.put("minmax.cache-entries", minmax.cachedEntries());
      m.put("minmax.max-overlap", minmax.maxOverlap());
    }
    m.put("disk.bytes", store.diskBytes());
    m.put("block-cache.hits", store.blockCache().hits());
    m.put("block-cache.misses", store.blockCache().misses());
    m.put("block-cache.used-bytes", store.blockCache().usedBytes());
    if (store.blockCache() instanceof io.iam.core.cache.PriorityBlockCache pool) {
      m.put("block-cache.protected-hits", pool.protectedHits());
      m.put("block-cache.protected-misses", pool.protectedMisses());
      m.put("block-cache.protected-used-bytes", pool.protectedUsedBytes());
      m.put("block-cache.protected-capacity-bytes", pool.protectedCapacityBytes());
      if (tree != null) {
        m.put("block-cache.protected-ledger-bytes", tree.protectedLedgerBytes());
      }
      m.put("block-cache.demotions", pool.demotions());
      m.put("block-cache.protected-overflows", pool.overflows());
    }
    return m;
  }

  /** The flush behaviour in words: where the tree appends and merges. */
  private static String describe(io.iam.core.tree.iam.Mode mode, int depth) {
    return switch (mode.kind()) {
      case LSA -> "appends everywhere";
      case LSM_MERGE -> "merges everywhere";
      case IAM -> mode.m() > depth ? "appends everywhere (mixed level m=" + mode.m() + " below the tree)"
          : "mixed level m=" + mode.m() + ", k=" + mode.k();
    };
  }

  static String human(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = bytes;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format("%.1f %s", v, units[u]);
  }
}
