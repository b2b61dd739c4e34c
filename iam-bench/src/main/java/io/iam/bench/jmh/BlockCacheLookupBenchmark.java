package io.iam.bench.jmh;

import io.iam.core.cache.BlockCache;
import io.iam.core.cache.LruBlockCache;
import io.iam.core.cache.PriorityBlockCache;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One block-cache look-up in a cache as full as the IAM-tree's in the paper's setup at 4 M records: {@value
 * #FILES} files of {@value #BLOCKS_PER_FILE} resident 4 KiB blocks each (about 680 MiB of blocks,
 * 170,000 entries; the blocks share one array, so the heap holds the index, not the data). Block
 * offsets advance by {@value #BLOCK_STRIDE} bytes, a data block plus its trailer.
 *
 * <ul>
 *   <li>{@code hit}: {@link BlockCache#get} of a random resident block (a point read's cached
 *       block: the look-up and the LRU move);
 *   <li>{@code peek}: {@link BlockCache#peek} of a random resident block (a compaction's look-only
 *       read). {@link LruBlockCache} cannot peek and returns null at once, so its figure is only the
 *       call;
 *   <li>{@code miss}: {@link BlockCache#peek} of a block of a file the cache does not hold (a
 *       compaction reading an uncached sequence asks once per block).
 * </ul>
 *
 * {@code cache} is the implementation: {@code priority} (the IAM-tree's, every block in the normal
 * pool) or {@code lru} (the other trees').
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BlockCacheLookupBenchmark extends SuiteBenchmark {

  static final int FILES = 170;
  static final int BLOCKS_PER_FILE = 1_000;
  static final int BLOCK_STRIDE = 4_101;
  private static final int BLOCK_BYTES = 4_096;
  private static final int PROBES = 1 << 14;

  @Param({"priority", "lru"})
  public String cache;

  private BlockCache blocks;
  private long[] files;
  private long[] offsets;
  private int next;

  @Setup
  public void setUp() {
    byte[] block = new byte[BLOCK_BYTES];
    long capacity = (long) FILES * BLOCKS_PER_FILE * (BLOCK_BYTES + LruBlockCache.ENTRY_OVERHEAD_BYTES);
    blocks = switch (cache) {
      case "priority" -> new PriorityBlockCache(capacity, 0);
      case "lru" -> new LruBlockCache(capacity);
      default -> throw new IllegalArgumentException("cache must be priority or lru: " + cache);
    };
    for (int f = 0; f < FILES; f++) {
      for (int b = 0; b < BLOCKS_PER_FILE; b++) {
        blocks.fill(fileNumber(f), (long) b * BLOCK_STRIDE, block);
      }
    }
    if (blocks.residentBlocks(fileNumber(FILES - 1)) != BLOCKS_PER_FILE) {
      throw new IllegalStateException("the cache did not keep every block");
    }
    SplittableRandom random = new SplittableRandom(7);
    files = new long[PROBES];
    offsets = new long[PROBES];
    for (int i = 0; i < PROBES; i++) {
      files[i] = fileNumber(random.nextInt(FILES));
      offsets[i] = (long) random.nextInt(BLOCKS_PER_FILE) * BLOCK_STRIDE;
    }
  }

  /** File numbers spread as a store's live files are: every third number, from 1,000 on. */
  private static long fileNumber(int i) {
    return 1_000 + 3L * i;
  }

  @Benchmark
  public byte[] hit() throws IOException {
    int i = next = (next + 1) & (PROBES - 1);
    return blocks.get(files[i], offsets[i], () -> {
      throw new IllegalStateException("a resident block was loaded");
    });
  }

  @Benchmark
  public byte[] peek() {
    int i = next = (next + 1) & (PROBES - 1);
    return blocks.peek(files[i], offsets[i]);
  }

  @Benchmark
  public byte[] miss() {
    int i = next = (next + 1) & (PROBES - 1);
    return blocks.peek(files[i] + 1, offsets[i]);
  }
}
