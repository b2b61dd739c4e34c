package io.iam.bench.jmh;

import io.iam.core.cache.LruBlockCache;
import io.iam.core.fs.LocalFs;
import io.iam.core.key.InternalKey;
import io.iam.core.table.Entry;
import io.iam.core.table.MSTableReader;
import io.iam.core.table.SequenceReader;
import io.iam.core.table.TableOptions;
import java.io.IOException;
import java.nio.file.Path;
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
 * Point reads from an MSTable (the target: "a file holding one sequence must read as fast as an
 * ordinary SSTable"). Layouts of the same 100,000 entries (24-byte keys, 200-byte values):
 *
 * <ul>
 *   <li>{@code compact}: one sequence, data then metadata then footer: an SSTable's shape;
 *   <li>{@code reserved}: one sequence in a file with a 64 MiB capacity, metadata at the far end
 *       of a hole (the layout the IAM tree appends into);
 *   <li>{@code four-sequences}: the entries split round-robin over four sequences of one file,
 *       read newest sequence first with Bloom filters, as the engine does.
 * </ul>
 *
 * {@code cache} is the block cache size: {@code 64MiB} keeps every block resident; {@code 0}
 * reads every block from the file (the OS page cache still holds it).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MSTableReadBenchmark extends SuiteBenchmark {

  private static final int ENTRIES = 100_000;

  @Param({"compact", "reserved", "four-sequences"})
  public String layout;

  @Param({"64MiB", "0"})
  public String cache;

  private Path dir;
  private MSTableReader reader;
  private byte[][] seekKeys;
  private byte[][] userKeys;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFixtures.tempDir("mstable-bench");
    Path file = dir.resolve("000001.mst");
    int sequences = layout.equals("four-sequences") ? 4 : 1;
    long capacity = layout.equals("compact") ? 0 : 64L << 20;
    BenchFixtures.writeTable(file, capacity, TableOptions.DEFAULT, ENTRIES, sequences, 200);
    long cacheBytes = cache.equals("0") ? 0 : 64L << 20;
    reader = MSTableReader.open(LocalFs.INSTANCE, file, 1, new LruBlockCache(cacheBytes), TableOptions.DEFAULT, BenchFixtures.CMP);
    SplittableRandom random = new SplittableRandom(2);
    seekKeys = new byte[4096][];
    userKeys = new byte[4096][];
    for (int i = 0; i < seekKeys.length; i++) {
      userKeys[i] = BenchFixtures.userKey(random.nextInt(ENTRIES));
      seekKeys[i] = InternalKey.seekKey(userKeys[i], InternalKey.MAX_SEQUENCE);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    reader.close();
    BenchFixtures.deleteTree(dir);
  }

  /** Finds one key, searching sequences newest first and skipping those its filter rules out. */
  @Benchmark
  public Entry pointRead() throws IOException {
    int i = next;
    next = (next + 1) & (seekKeys.length - 1);
    for (int s = reader.sequenceCount() - 1; s >= 0; s--) {
      SequenceReader seq = reader.sequence(s);
      if (seq.mayContain(userKeys[i])) {
        Entry e = seq.seek(seekKeys[i]);
        if (e != null && e.key().length == seekKeys[i].length
            && java.util.Arrays.equals(e.key(), 0, userKeys[i].length, userKeys[i], 0, userKeys[i].length)) {
          return e;
        }
      }
    }
    throw new IllegalStateException("key not found");
  }
}
