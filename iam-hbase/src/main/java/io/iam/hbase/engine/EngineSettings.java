package io.iam.hbase.engine;

import io.iam.core.engine.CacheBudget;
import io.iam.core.engine.StoreOptions;
import io.iam.core.engine.TreeKind;
import io.iam.core.option.InvalidOptionsException;
import io.iam.core.option.Option;
import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionType;
import io.iam.core.option.OptionValues;
import io.iam.hbase.config.PrefixedProperties;
import io.iam.core.tree.iam.MkChooser;
import io.iam.core.tree.iam.Mode;
import io.iam.core.tree.layout.TreePlanner;
import java.util.List;
import java.util.Map;

/**
 * The options of {@link IamStoreEngine}, as HBase properties {@value #PREFIX}{@code <key>}. The
 * tree options are iam-core's own ({@link StoreOptions}); the node capacity and the cache size
 * override are the engine's. Pure: no HBase types.
 */
public final class EngineSettings {

  /** Prefix of every engine property. */
  public static final String PREFIX = "iam.engine.";

  /** The tree kinds a store engine can keep (the leveled tree is HBase's own default engine). */
  public static final Option<TreeKind> TREE =
      Option.builder(StoreOptions.TREE.key(), OptionType.enumOf(TreeKind.class))
          .defaultValue(TreeKind.IAM).bounds(TreeKind.IAM, TreeKind.LSM_MERGE)
          .doc("the tree: iam (append above the mixed level m, merge below), lsa (append everywhere) or lsm-merge (merge everywhere)").build();

  public static final Option<Long> NODE_CAPACITY =
      Option.builder("node-capacity", OptionType.SIZE)
          .defaultValue(128L << 20).bounds(16L << 10, 16L << 30)
          .doc("C_t: a node whose HFiles hold this many bytes of cells (serialized, before encoding or compression) is full and flushes into its children; a full leaf is cut into leaves of C_t/5").build();

  public static final Option<Long> CACHE_SIZE =
      Option.builder("cache-size", OptionType.SIZE)
          .defaultValue(0L).bounds(0L, 1L << 40)
          .doc("tree=iam: M, the cache size m and k are chosen for; 0 takes the region server's block cache capacity").build();

  public static final Option<Integer> MAX_RUNNING_STEPS =
      Option.builder("max-running-steps", OptionType.INT)
          .defaultValue(0).bounds(0, 1024)
          .doc("the tree steps of one store that may be selected at once, on disjoint nodes; 1 runs them one at a time in the planner's order; 0 leaves the bound to HBase's compaction threads").build();

  public static final OptionTable TABLE = OptionTable.of("the IAM store engine",
      List.of(TREE, StoreOptions.FANOUT, NODE_CAPACITY, StoreOptions.MIXED_LEVEL, StoreOptions.MIXED_LEVEL_SEQUENCES,
          StoreOptions.APPEND_CACHE_BUDGET, CACHE_SIZE, MAX_RUNNING_STEPS));

  private final OptionValues values;

  private EngineSettings(OptionValues values) {
    this.values = values;
  }

  /**
   * Parses the {@value #PREFIX}{@code *} entries of {@code properties} (other keys are not looked
   * at). This is what the master's validator calls.
   *
   * @throws InvalidOptionsException naming every unknown property and bad value as written
   */
  public static EngineSettings parse(Iterable<Map.Entry<String, String>> properties) {
    Map<String, String> given = PrefixedProperties.under(PREFIX, properties);
    return new EngineSettings(TABLE.parse(given, key -> PREFIX + key));
  }

  /** Every option at its default. */
  public static EngineSettings defaults() {
    return new EngineSettings(TABLE.defaults());
  }

  public TreeKind tree() {
    return values.get(TREE);
  }

  /** t. */
  public int fanout() {
    return values.get(StoreOptions.FANOUT);
  }

  /** C_t in bytes. */
  public long nodeCapacity() {
    return values.get(NODE_CAPACITY);
  }

  /** The steps that may be selected at once; {@link Integer#MAX_VALUE} when HBase's threads bound them. */
  public int maxRunningSteps() {
    int max = values.get(MAX_RUNNING_STEPS);
    return max == 0 ? Integer.MAX_VALUE : max;
  }

  /** M to use, given the region server's block cache capacity. */
  public long cacheBytes(long blockCacheCapacity) {
    long fixed = values.get(CACHE_SIZE);
    return fixed > 0 ? fixed : Math.max(0, blockCacheCapacity);
  }

  /**
   * The kernel's mode for level sizes D_1..D_n and cache size M: LSA and LSM-merge are fixed; IAM
   * takes m and k from {@link MkChooser} (inequality (2), M/2 with {@code append-cache-budget=half},
   * k at most t) unless fixed by {@code mixed-level} / {@code mixed-level-sequences}.
   */
  public Mode modeFor(long[] levelBytes, long cacheBytes) {
    int fixedM = values.get(StoreOptions.MIXED_LEVEL);
    int fixedK = values.get(StoreOptions.MIXED_LEVEL_SEQUENCES);
    return switch (tree()) {
      case LSA -> Mode.lsa();
      case LSM_MERGE -> Mode.lsmMerge();
      default -> {
        if (fixedM > 0) {
          yield Mode.iam(fixedM, fixedK > 0 ? fixedK : 1);
        }
        boolean half = values.get(StoreOptions.APPEND_CACHE_BUDGET) == CacheBudget.HALF;
        MkChooser.Choice c = MkChooser.choose(levelBytes, cacheBytes, fanout(), fanout(), half);
        yield Mode.iam(c.m(), fixedK > 0 ? fixedK : c.k());
      }
    };
  }

  /**
   * The planner a store with these settings uses when the region server's block cache holds
   * {@code blockCacheCapacity} bytes: m and k follow the level sizes at every plan.
   */
  public TreePlanner planner(long blockCacheCapacity) {
    long cache = cacheBytes(blockCacheCapacity);
    return new TreePlanner(fanout(), nodeCapacity(), d -> modeFor(d, cache));
  }

  /** The values in canonical text form. */
  public Map<String, String> asStrings() {
    return values.asStrings();
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
