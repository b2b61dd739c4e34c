package io.iam.bench.jmh;

import io.iam.core.key.ValueType;
import io.iam.core.memtable.MemTable;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;

/**
 * Memtable inserts, as a write applies them: {@link MemTable#add} of a PUT with a fresh sequence
 * number. Keys are random, 16 to 24 bytes, taken in turn from a pool of {@value #KEYS}, so past the
 * first {@value #KEYS} inserts of an iteration each one adds a newer version of a key already
 * present; values are random, 100 bytes to 1 KiB. One operation is one insert. Each iteration starts from an empty memtable, as
 * after a flush, so memory stays bounded and the table's depth is comparable between iterations.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class MemTableInsertBenchmark extends SuiteBenchmark {

  private static final int KEYS = 1 << 16;
  private static final int VALUES = 1 << 10;

  private byte[][] keys;
  private byte[][] values;
  private MemTable memtable;
  private long sequence;

  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom random = new SplittableRandom(1);
    keys = BenchFixtures.randomKeys(random, KEYS, 16, 24);
    values = BenchFixtures.randomArrays(random, VALUES, 100, 1024);
  }

  @Setup(Level.Iteration)
  public void newMemTable() {
    memtable = new MemTable(BenchFixtures.CMP);
    sequence = 0;
  }

  @Benchmark
  public MemTable insert() {
    long s = ++sequence;
    memtable.add(s, ValueType.PUT, keys[(int) s & (KEYS - 1)], values[(int) s & (VALUES - 1)]);
    return memtable;
  }
}
