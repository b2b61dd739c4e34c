package io.iam.core.engine;

import io.iam.core.cache.BlockCache;
import io.iam.core.cache.LruBlockCache;
import io.iam.core.cache.PriorityBlockCache;
import io.iam.core.key.KeyComparator;
import io.iam.core.manifest.LevelBuffers;
import io.iam.core.option.OptionValues;
import io.iam.core.tree.lsbm.CompactionBuffer;

/**
 * The one place that knows which {@link StoreTree} runs each {@code tree} option, and what that
 * tree needs from the store's other parts: its block cache and the buffers its manifest records.
 * Adding a tree adds a case here and a {@link TreeKind}; {@link IamStore} does not change.
 */
final class StoreTrees {

  private StoreTrees() {}

  /** The tree {@code parts.options()} names, scheduling through {@code host}. */
  static StoreTree create(StoreParts parts, TreeHost host) {
    TreeKind kind = parts.options().get(StoreOptions.TREE);
    return switch (kind) {
      case LEVELED -> LeveledStoreTree.create(parts, host);
      case LSBM -> LsbmStoreTree.create(parts, host);
      case MINMAX -> new MinMaxStoreTree(parts, host);
      case STACK -> new StackStoreTree(parts, host);
      default -> {
        if (!kind.nodeTree()) {
          throw new IllegalArgumentException("no store tree for tree=" + kind);
        }
        yield new NodeStoreTree(parts, host);
      }
    };
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
