package io.iam.bench.hbase;

import io.iam.bench.load.LoadConfig;
import io.iam.core.option.InvalidOptionsException;
import io.iam.hbase.compaction.IamCompactionPolicy;
import io.iam.hbase.config.CompactionSettings;
import io.iam.hbase.engine.EngineSettings;
import io.iam.hbase.engine.IamStoreEngine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The {@code hbase} store's options ({@link LoadConfig#engineOptions()}, {@code iam ycsb -o
 * KEY=VALUE}), turned into the column family configuration HBase reads. Pure: no HBase calls.
 *
 * <p>The store's own keys:
 *
 * <ul>
 *   <li>{@value #ZOOKEEPER}: {@code host:port[,host:port...]} of a real cluster's ZooKeeper; without it
 *       the store runs on the in-process mini cluster.
 *   <li>{@value #TABLE}: the table name (default {@value #DEFAULT_TABLE}). On the mini cluster every
 *       store gets a fresh table of this name (with {@code _2}, {@code _3}, ... if taken).
 *   <li>{@value #REGION_SPLITS}: {@code true} keeps HBase's region split policy; default {@code false},
 *       {@code DisabledRegionSplitPolicy}, so one region's store sees every write.
 *   <li>{@value #BLOCKING_STORE_FILES}{@code =N}: the family's {@code hbase.hstore.blockingStoreFiles}
 *       (at least 1); without it the store's choice below, else HBase's default of 16.
 *   <li>{@value #COMPACTION_THROUGHPUT}{@code =hbase|unlimited}: the mini cluster's compaction
 *       throughput limit. {@code hbase} (the default) keeps HBase's own, {@code
 *       PressureAwareCompactionThroughputController}: 50 to 100 MB/s for all of a region server's
 *       compactions, by the highest compaction pressure of its stores. {@code unlimited} sets {@code
 *       hbase.regionserver.throughput.controller} to {@code NoLimitThroughputController}. One region
 *       server has one limit, so every store of one command must give the same value.
 *   <li>{@value #BLOCKING_WAIT_MS}{@code =N|hbase}: the mini cluster's {@code
 *       hbase.hstore.blockingWaitTime}, the longest HBase holds a region's flushes while a store has
 *       more than {@code hbase.hstore.blockingStoreFiles} files (HBase's default 90,000 ms; it looks
 *       again every hundredth of it). Region-server-wide, like {@value #COMPACTION_THROUGHPUT}.
 * </ul>
 *
 * <p>The policy, with one key:
 *
 * <ul>
 *   <li>{@value LoadConfig#POLICY}{@code =NAME} (or {@code --policy NAME}): a stack policy of iam-core
 *       ({@code MergePolicies}) in HBase's default store engine. The column family gets {@code
 *       hbase.hstore.defaultengine.compactionpolicy.class=IamCompactionPolicy} and {@code
 *       iam.compaction.policy=NAME}; every other key {@code K} becomes {@code iam.compaction.K} ({@code
 *       --k} is {@code max-components}).
 *   <li>{@code tree=iam|lsa|lsm-merge}: IAM's store engine ({@code hbase.hstore.engine.class=IamStoreEngine},
 *       {@code iam.engine.tree}); every other key {@code K} becomes {@code iam.engine.K}.
 *   <li>{@value #ENGINE}{@code =stripe}: HBase's stripe store engine ({@code StripeStoreEngine}) with its
 *       defaults and {@code hbase.hstore.blockingStoreFiles=100}; {@code engine=default} is HBase's
 *       default engine.
 *   <li>none of these: HBase's own default store engine and compaction policy, unchanged (other keys
 *       are refused).
 * </ul>
 *
 * <p>The values are validated by iam-hbase's {@link CompactionSettings} and {@link EngineSettings}, the
 * classes the region server and the master's validator use, so an error names the property and a
 * value accepted here is a value the region server runs. Unlike a region server, this store also
 * refuses an option of another policy than the chosen one, since on a command line it is a mistake.
 *
 * @param zookeeper the real cluster's quorum, or empty for the mini cluster
 * @param table the table name
 * @param regionSplits whether regions may split
 * @param familyConfiguration the column family's configuration ({@code setConfiguration})
 * @param blockingStoreFiles {@code hbase.hstore.blockingStoreFiles} the family needs, or 0 for HBase's
 * @param server the mini cluster's region-server-wide settings this store asks for
 */
public record HBaseOptions(Optional<String> zookeeper, String table, boolean regionSplits,
    Map<String, String> familyConfiguration, int blockingStoreFiles, RegionServerSettings server) {

  public static final String ZOOKEEPER = "zookeeper";
  public static final String TABLE = "table";
  public static final String REGION_SPLITS = "region-splits";
  public static final String TREE = EngineSettings.TREE.key();
  public static final String ENGINE = "engine";
  public static final String BLOCKING_STORE_FILES = "blocking-store-files";
  public static final String COMPACTION_THROUGHPUT = "compaction-throughput";
  public static final String BLOCKING_WAIT_MS = "blocking-wait-ms";
  /** {@code hbase.hstore.blockingStoreFiles} for the stripe engine. */
  static final int STRIPE_BLOCKING_STORE_FILES = 100;
  /** HBase's stripe store engine. */
  static final String STRIPE_ENGINE = "org.apache.hadoop.hbase.regionserver.StripeStoreEngine";
  public static final String DEFAULT_TABLE = "usertable";

  /** HBase's default {@code hbase.hstore.blockingStoreFiles}. */
  static final int HBASE_BLOCKING_STORE_FILES = 16;

  public HBaseOptions {
    familyConfiguration = java.util.Collections.unmodifiableMap(new TreeMap<>(familyConfiguration));
  }

  /**
   * Reads {@code options}.
   *
   * @throws InvalidOptionsException naming every bad key and value
   */
  public static HBaseOptions parse(Map<String, String> options) {
    Map<String, String> rest = new LinkedHashMap<>(options);
    Optional<String> zookeeper = Optional.ofNullable(rest.remove(ZOOKEEPER)).map(String::trim);
    String table = Optional.ofNullable(rest.remove(TABLE)).map(String::trim).orElse(DEFAULT_TABLE);
    String splits = Optional.ofNullable(rest.remove(REGION_SPLITS)).map(String::trim).orElse("false");
    String blockingGiven = rest.remove(BLOCKING_STORE_FILES);
    String throughput = Optional.ofNullable(rest.remove(COMPACTION_THROUGHPUT)).map(String::trim).orElse("hbase");
    List<String> problems = new ArrayList<>();
    if (!throughput.equals("hbase") && !throughput.equals("unlimited")) {
      problems.add(COMPACTION_THROUGHPUT + "='" + throughput + "': hbase (HBase's own limit, 50 to 100 MB/s"
          + " by compaction pressure) or unlimited");
    }
    if (zookeeper.isPresent() && throughput.equals("unlimited")) {
      problems.add(miniClusterOnly(COMPACTION_THROUGHPUT, "hbase.regionserver.throughput.controller"));
    }
    String waitGiven = Optional.ofNullable(rest.remove(BLOCKING_WAIT_MS)).map(String::trim).orElse("hbase");
    int waitMillis = waitGiven.equals("hbase") ? 0
        : positive(BLOCKING_WAIT_MS, waitGiven, "milliseconds, at least 1, or hbase (90,000)", problems);
    if (waitMillis > 0 && zookeeper.isPresent()) {
      problems.add(miniClusterOnly(BLOCKING_WAIT_MS, RegionServerSettings.BLOCKING_WAIT_KEY));
    }
    int blockingOption = blockingGiven == null ? 0
        : positive(BLOCKING_STORE_FILES, blockingGiven, "a whole number of files, at least 1", problems);
    if (zookeeper.isPresent() && zookeeper.get().isEmpty()) {
      problems.add(ZOOKEEPER + "='': give host:port[,host:port...]");
    }
    if (!table.matches("[A-Za-z0-9_.:-]+")) {
      problems.add(TABLE + "='" + table + "': a table name has letters, digits, '_', '-', '.' and a namespace's ':' only");
    }
    if (!splits.equals("true") && !splits.equals("false")) {
      problems.add(REGION_SPLITS + "='" + splits + "': true or false");
    }
    String policy = rest.remove(LoadConfig.POLICY);
    String tree = rest.remove(TREE);
    String engine = Optional.ofNullable(rest.remove(ENGINE)).map(String::trim).orElse("default");
    if (policy != null && tree != null) {
      problems.add("give either " + LoadConfig.POLICY + "=NAME (a stack policy in HBase's default store engine)"
          + " or " + TREE + "=" + tree + " (IAM's store engine), not both");
    }
    if (!engine.equals("default") && !engine.equals("stripe")) {
      problems.add(ENGINE + "='" + engine + "': default or stripe (HBase's own store engines)");
    } else if (engine.equals("stripe") && (policy != null || tree != null)) {
      problems.add(ENGINE + "=stripe runs HBase's stripe engine with its own policy: give no "
          + LoadConfig.POLICY + " or " + TREE);
    }
    if (!problems.isEmpty()) {
      throw new InvalidOptionsException("invalid hbase store options", problems);
    }

    Map<String, String> family = new LinkedHashMap<>();
    int blocking = 0;
    if (policy != null) {
      family.put(CompactionSettings.POLICY_KEY, policy);
      rest.forEach((k, v) -> family.put(CompactionSettings.PREFIX + k, v));
      CompactionSettings settings = CompactionSettings.parse(family.entrySet());
      if (!settings.ignoredKeys().isEmpty()) {
        throw new InvalidOptionsException("invalid hbase store options", List.of("not options of the "
            + settings.policy().name() + " policy: " + String.join(", ", settings.ignoredKeys())));
      }
      family.put("hbase.hstore.defaultengine.compactionpolicy.class", IamCompactionPolicy.class.getName());
      int k = settings.policy().maxComponents();
      if (k != Integer.MAX_VALUE && k + 2 > HBASE_BLOCKING_STORE_FILES) {
        // The policy keeps up to k + 1 files between a flush and its merge (IamCompactionPolicy.blockingWarning).
        blocking = k + 2;
      }
    } else if (tree != null) {
      family.put(EngineSettings.PREFIX + TREE, tree);
      rest.forEach((k, v) -> family.put(EngineSettings.PREFIX + k, v));
      EngineSettings.parse(family.entrySet());
      // No blocking count: the engine makes HBase's flush blocking follow its tree (docs/hbase-engine.md).
      family.put("hbase.hstore.engine.class", IamStoreEngine.class.getName());
    } else if (engine.equals("stripe") && rest.isEmpty()) {
      family.put("hbase.hstore.engine.class", STRIPE_ENGINE);
      // A stripe store keeps level-0 files and several files per stripe: at HBase's default of 16 a
      // load of 1,000 flushes had loaded only part of its rows after 9 minutes.
      blocking = STRIPE_BLOCKING_STORE_FILES;
    } else if (!rest.isEmpty()) {
      throw new InvalidOptionsException("invalid hbase store options", List.of("options " + rest.keySet()
          + " need a policy: " + LoadConfig.POLICY + "=NAME (or --policy) or " + TREE + "=iam|lsa|lsm-merge"));
    }
    return new HBaseOptions(zookeeper, table, Boolean.parseBoolean(splits), family,
        blockingOption > 0 ? blockingOption : blocking,
        new RegionServerSettings(throughput.equals("unlimited"), waitMillis));
  }

  /** The problem with region server option {@code key} given for a real cluster. */
  private static String miniClusterOnly(String key, String property) {
    return key + " sets the mini cluster's region server; a real cluster's is set in its hbase-site.xml ("
        + property + ")";
  }

  /** {@code given} as a whole number of at least 1, or 0 after adding a problem that names {@code key}. */
  private static int positive(String key, String given, String allowed, List<String> problems) {
    try {
      int value = Integer.parseInt(given.trim());
      if (value >= 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    problems.add(key + "='" + given + "': " + allowed);
    return 0;
  }

  /** Whether the store runs on the in-process mini cluster. */
  public boolean miniCluster() {
    return zookeeper.isEmpty();
  }
}
