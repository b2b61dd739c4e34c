package io.iam.bench.jmh;

import io.iam.core.cache.LruBlockCache;
import io.iam.core.fs.LocalFs;
import io.iam.core.table.MSTableReader;
import io.iam.core.table.SequenceReader;
import io.iam.core.table.TableOptions;
import java.io.IOException;
import java.nio.file.Path;
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
 * Decoding one data block: {@link SequenceReader#scanBlock(int)} takes a block from the block
 * cache, parses its restart array and walks every entry, decoding the prefix-compressed keys, as a
 * scan does. The cache holds every block, so no operation reads the file. One sequence of
 * {@value #ENTRIES} entries (24-byte user keys, 100-byte values, restart interval 16); {@code
 * blockSize} is the target block size, 4 KiB (the engine's default) or 16 KiB. One operation is one
 * whole block; a 16 KiB block holds about four times the entries of a 4 KiB one.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BlockDecodeBenchmark extends SuiteBenchmark {

  private static final int ENTRIES = 50_000;

  @Param({"4096", "16384"})
  public int blockSize;

  private Path dir;
  private MSTableReader reader;
  private SequenceReader sequence;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFixtures.tempDir("block-bench");
    Path file = dir.resolve("000001.mst");
    TableOptions opts = TableOptions.DEFAULT.withBlockSize(blockSize);
    BenchFixtures.writeTable(file, 0, opts, ENTRIES, 1, 100);
    reader = MSTableReader.open(LocalFs.INSTANCE, file, 1, new LruBlockCache(64L << 20), opts, BenchFixtures.CMP);
    sequence = reader.sequence(0);
    for (int i = 0; i < sequence.blockCount(); i++) {
      sequence.scanBlock(i); // fills the cache
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    reader.close();
    BenchFixtures.deleteTree(dir);
  }

  /** Decodes every entry of the next block; the last block, often short, is left out. */
  @Benchmark
  public int decodeBlock() throws IOException {
    int i = next;
    next = next + 1 < sequence.blockCount() - 1 ? next + 1 : 0;
    return sequence.scanBlock(i);
  }
}
