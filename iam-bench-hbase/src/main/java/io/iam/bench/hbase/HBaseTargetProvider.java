package io.iam.bench.hbase;

import io.iam.bench.load.LoadConfig;
import io.iam.bench.load.LoadTarget;
import io.iam.bench.load.LoadTargetProvider;
import io.iam.core.engine.StoreOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Registers {@link HBaseTarget} as the store {@value HBaseTarget#NAME} of {@code iam load} and {@code
 * iam ycsb}, and the HBase configurations operators compare as stores of their own, so that one
 * {@code iam load --tree hbase --vs hbase-stripe,hbase-binomial,...} runs them one after another in
 * one mini cluster:
 *
 * <ul>
 *   <li>{@code hbase}: HBase's default engine (exploring compactions), or whatever {@code -o} says;
 *   <li>{@code hbase-stripe}: HBase's stripe engine;
 *   <li>{@code hbase-binomial}, {@code hbase-minlatency}: IAM's policy in HBase's default engine, k = 6;
 *   <li>{@code hbase-iam}, {@code hbase-lsa}: IAM's store engine with {@code tree=iam} or {@code lsa}
 *       and C_t from {@link #nodeCapacity}.
 * </ul>
 *
 * A preset's options come first; {@code -o} options given on the command line override them.
 */
public final class HBaseTargetProvider implements LoadTargetProvider {

  /** The presets: store name to the options it runs with, given the run's budgets. */
  static final Map<String, Function<LoadConfig, Map<String, String>>> PRESETS = presets();

  private static Map<String, Function<LoadConfig, Map<String, String>>> presets() {
    Map<String, Function<LoadConfig, Map<String, String>>> p = new LinkedHashMap<>();
    p.put("hbase-stripe", c -> Map.of(HBaseOptions.ENGINE, "stripe"));
    p.put("hbase-binomial", c -> Map.of(LoadConfig.POLICY, "binomial", "max-components", "6"));
    p.put("hbase-minlatency", c -> Map.of(LoadConfig.POLICY, "minlatency", "max-components", "6"));
    p.put("hbase-iam", c -> Map.of(HBaseOptions.TREE, "iam", "node-capacity", Long.toString(nodeCapacity(c))));
    p.put("hbase-lsa", c -> Map.of(HBaseOptions.TREE, "lsa", "node-capacity", Long.toString(nodeCapacity(c))));
    return p;
  }

  /**
   * C_t for the IAM presets: the memtable size doubled while level 1 (t nodes of C_t, t the default
   * fanout) still fits in half the block cache. A memtable then fills a node when the cache is small
   * (the IAM paper's choice); with room in the cache, nodes grow, and with them the pieces a node
   * flush writes (C_t / t), since HBase pays a fixed cost per HFile (writer, Bloom filter, file
   * info, reader) that files of a tenth of a small memstore cannot amortize.
   */
  static long nodeCapacity(LoadConfig c) {
    long fanout = StoreOptions.FANOUT.defaultValue();
    long capacity = c.memtableBytes();
    while (fanout * capacity * 2 <= c.cacheBytes() / 2) {
      capacity *= 2;
    }
    return capacity;
  }

  @Override
  public Map<String, LoadTarget.Factory> targets() {
    Map<String, LoadTarget.Factory> targets = new LinkedHashMap<>();
    targets.put(HBaseTarget.NAME, HBaseTarget::open);
    PRESETS.forEach((name, options) -> targets.put(name, (dir, config) -> {
      Map<String, String> merged = new LinkedHashMap<>(options.apply(config));
      merged.putAll(config.engineOptions());
      return HBaseTarget.open(dir, config.withEngineOptions(merged));
    }));
    return targets;
  }
}
