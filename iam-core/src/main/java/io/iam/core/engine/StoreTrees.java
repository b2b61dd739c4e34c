package io.iam.core.engine;

import io.iam.core.cache.BlockCache;
import io.iam.core.cache.LruBlockCache;
import io.iam.core.cache.PriorityBlockCache;
import io.iam.core.engine.leveled.LeveledStoreTree;
import io.iam.core.engine.lsbm.LsbmSettings;
import io.iam.core.engine.lsbm.LsbmStoreTree;
import io.iam.core.engine.minmax.MinMaxEngine;
import io.iam.core.engine.minmax.MinMaxSettings;
import io.iam.core.engine.minmax.MinMaxStoreTree;
import io.iam.core.engine.node.NodeSettings;
import io.iam.core.engine.node.NodeStoreTree;
import io.iam.core.engine.node.NodeTree;
import io.iam.core.engine.seam.StoreParts;
import io.iam.core.engine.seam.StoreTree;
import io.iam.core.engine.seam.TreeHost;
import io.iam.core.engine.stack.StackEngine;
import io.iam.core.engine.stack.StackStoreTree;
import io.iam.core.key.KeyComparator;
import io.iam.core.manifest.LevelBuffers;
import io.iam.core.option.OptionValues;
import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.PolicyOptions;
import io.iam.core.tree.LeveledPicker;
import io.iam.core.tree.iam.Mode;
import io.iam.core.tree.lsbm.CompactionBuffer;
import io.iam.core.tree.lsbm.LsbmLevels;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one place that knows which {@link StoreTree} runs each {@code tree} option, how the store's
 * options configure it, and what that tree needs from the store's other parts: its block cache and
 * the buffers its manifest records. Every tree lives in a package of its own and is configured by
 * value (its settings), so none of them reads the options table. Adding a tree adds a package, a
 * case here and a {@link TreeKind}; {@link IamStore} does not change.
 */
final class StoreTrees {

  private StoreTrees() {}

  /** The tree {@code options} names, with the {@code parts} of its store, scheduling through {@code host}. */
  static StoreTree create(StoreParts parts, TreeHost host, OptionValues options) {
    TreeKind kind = options.get(StoreOptions.TREE);
    return switch (kind) {
      case LEVELED -> LeveledStoreTree.create(parts, host, leveled(options));
      case LSBM -> LsbmStoreTree.create(parts, host, leveled(options), new LsbmSettings(
          options.get(StoreOptions.LSBM_LEVELS) == LsbmLevels.GEAR, options.get(StoreOptions.LSBM_BUFFER_FRACTION),
          options.get(StoreOptions.LSBM_FREEZE_SHRINK), options.get(StoreOptions.LSBM_TRIM_THRESHOLD),
          options.get(StoreOptions.LSBM_TRIM_INTERVAL_MS)));
      case MINMAX -> new MinMaxStoreTree(parts, host, new MinMaxSettings(options.get(StoreOptions.MINMAX_CACHE),
          options.get(StoreOptions.MINMAX_WINDOW), options.get(StoreOptions.MINMAX_SORT_OVERLAP)));
      case STACK -> new StackStoreTree(parts, host, stackPolicy(options));
      default -> {
        if (!kind.nodeTree()) {
          throw new IllegalArgumentException("no store tree for tree=" + kind);
        }
        yield new NodeStoreTree(parts, host, nodeSettings(kind, options));
      }
    };
  }

  /** The leveled picker tree=leveled and tree=lsbm are configured with. */
  private static LeveledPicker.Config leveled(OptionValues options) {
    return new LeveledPicker.Config(options.get(StoreOptions.L0_COMPACTION_TRIGGER),
        options.get(StoreOptions.LEVEL_BASE_SIZE), options.get(StoreOptions.LEVEL_SIZE_RATIO));
  }

  /** What node tree {@code kind} is configured with. */
  private static NodeSettings nodeSettings(TreeKind kind, OptionValues options) {
    Mode.Kind mode = switch (kind) {
      case LSA -> Mode.Kind.LSA;
      case LSM_MERGE -> Mode.Kind.LSM_MERGE;
      default -> Mode.Kind.IAM;
    };
    return new NodeSettings(mode, options.get(StoreOptions.FANOUT), options.get(StoreOptions.MEMTABLE_SIZE),
        options.get(StoreOptions.NODE_FLUSH_WRITERS), options.get(StoreOptions.NODE_FLUSH_IO_DEPTH),
        options.get(StoreOptions.MIXED_LEVEL), options.get(StoreOptions.MIXED_LEVEL_SEQUENCES),
        options.get(StoreOptions.APPEND_CACHE_BUDGET) == CacheBudget.HALF,
        options.get(StoreOptions.APPEND_CACHING) == AppendCaching.ON_WRITE,
        options.get(StoreOptions.PROTECTED_SEQUENCES) == ProtectedSequences.PAPER,
        options.get(StoreOptions.LEVEL_ONE_FULL_WAIT_MS) * 1_000_000L);
  }

  /**
   * The stack policy {@code options} name, given the store's {@code stack-size-ratio} and {@code
   * stack-max-components} where it has such options (its other options keep their defaults).
   */
  private static MergePolicy stackPolicy(OptionValues options) {
    MergePolicies.Descriptor d = MergePolicies.descriptor(options.get(StoreOptions.STACK_POLICY));
    Map<String, String> given = new TreeMap<>();
    Map<String, String> storeKey = new TreeMap<>();
    if (d.options().find(PolicyOptions.LEVEL_RATIO.key()).isPresent()) {
      given.put(PolicyOptions.LEVEL_RATIO.key(), String.valueOf(options.get(StoreOptions.STACK_SIZE_RATIO)));
      storeKey.put(PolicyOptions.LEVEL_RATIO.key(), StoreOptions.STACK_SIZE_RATIO.key());
    }
    if (d.options().find(PolicyOptions.MAX_COMPONENTS.key()).isPresent()) {
      given.put(PolicyOptions.MAX_COMPONENTS.key(), String.valueOf(options.get(StoreOptions.STACK_MAX_COMPONENTS)));
      storeKey.put(PolicyOptions.MAX_COMPONENTS.key(), StoreOptions.STACK_MAX_COMPONENTS.key());
    }
    return d.factory().apply(d.options().parse(given, k -> storeKey.getOrDefault(k, k)));
  }

  /**
   * The IAM-tree gets a cache with a protected pool of the size its m/k choice budgets for (M, or
   * M/2 with {@code append-cache-budget=half}), so that reads of the merging levels never evict
   * the sequences the m/k rule keeps in memory (§5.1.3); the other trees get one LRU.
   */
  static BlockCache blockCache(OptionValues options) {
    long m = options.get(StoreOptions.BLOCK_CACHE_SIZE);
    if (options.get(StoreOptions.TREE) != TreeKind.IAM) {
      return new LruBlockCache(m);
    }
    return new PriorityBlockCache(m, options.get(StoreOptions.APPEND_CACHE_BUDGET) == CacheBudget.HALF ? m / 2 : m);
  }

  /** The buffers a new or recovered manifest records: LSbM's compaction buffer, or none. */
  static LevelBuffers levelBuffers(TreeKind kind, KeyComparator comparator, int levels) {
    return kind == TreeKind.LSBM ? CompactionBuffer.empty(comparator, levels) : LevelBuffers.NONE;
  }

  /** The node tree's executor of {@code store}, or null if it runs another tree. */
  static NodeTree nodeTree(IamStore store) {
    return store.storeTree() instanceof NodeStoreTree t ? t.nodeTree() : null;
  }

  /** The write cache and buckets of {@code store}, or null if it is not tree=minmax. */
  static MinMaxEngine minmax(IamStore store) {
    return store.storeTree() instanceof MinMaxStoreTree t ? t.engine() : null;
  }

  /** The stack policy's executor of {@code store}, or null if it is not tree=stack. */
  static StackEngine stack(IamStore store) {
    return store.storeTree() instanceof StackStoreTree t ? t.engine() : null;
  }

  /** Whether {@code store} is tree=lsbm with lsbm-levels=gear. */
  static boolean gearLevels(IamStore store) {
    return store.storeTree() instanceof LeveledStoreTree t && t.gearLevels();
  }

  /** The compaction buffer lists B_i of {@code store}'s current version; empty unless it is tree=lsbm. */
  static CompactionBuffer compactionBuffer(IamStore store) {
    return store.storeTree() instanceof LsbmStoreTree t ? t.buffer()
        : CompactionBuffer.empty(store.comparator(), store.options().get(StoreOptions.MAX_LEVELS));
  }
}
