package io.iam.bench.jmh;

import io.iam.core.engine.IamStore;
import io.iam.core.engine.StoreIterator;
import io.iam.core.engine.StoreOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Short scans through a store's merging iterator: seek to a random key, then read {@value #SCAN}
 * entries. The store holds {@value #KEYS} random 16-byte keys with 100-byte values, loaded through
 * 64 KiB memtables and settled, with a block cache that holds every block, so the time is the
 * merge and the block decoding, not I/O. With {@code tree=lsa} a scan merges every sequence of the
 * nodes it crosses (a few per node); with {@code leveled} one file per level. One operation is one
 * scan.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StoreScanBenchmark extends SuiteBenchmark {

  private static final int KEYS = 200_000;
  private static final int SCAN = 1_000;

  @Param({"lsa", "leveled"})
  public String tree;

  private Path dir;
  private IamStore store;
  private byte[][] starts;
  private int next;

  @Setup(Level.Trial)
  public void load() throws IOException {
    dir = BenchFixtures.tempDir("iam-scan-bench");
    store = IamStore.open(dir, StoreOptions.parse(Map.of(
        StoreOptions.TREE.key(), tree,
        StoreOptions.MEMTABLE_SIZE.key(), "64KiB",
        StoreOptions.BLOCK_CACHE_SIZE.key(), "256MiB")));
    SplittableRandom random = new SplittableRandom(7);
    byte[][] keys = BenchFixtures.randomKeys(random, KEYS, 16, 16);
    byte[][] values = BenchFixtures.randomArrays(random, 1024, 100, 100);
    for (int i = 0; i < KEYS; i++) {
      store.put(keys[i], values[i & 1023]);
    }
    store.flushAndSettle();
    starts = BenchFixtures.randomKeys(random, 4096, 16, 16);
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    store.close();
    BenchFixtures.deleteTree(dir);
  }

  @Benchmark
  public long scan() throws IOException {
    long bytes = 0;
    try (StoreIterator it = store.iterator()) {
      it.seek(starts[next++ & 4095]);
      for (int i = 0; i < SCAN && it.valid(); i++, it.next()) {
        bytes += it.value().length;
      }
    }
    return bytes;
  }
}
