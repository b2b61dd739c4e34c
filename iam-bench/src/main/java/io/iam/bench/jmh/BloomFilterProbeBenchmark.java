package io.iam.bench.jmh;

import io.iam.core.table.BloomFilter;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One Bloom filter probe, as a point read makes before it touches a sequence's blocks: {@link
 * BloomFilter#mayContain(byte[])} on a filter of {@value #KEYS} random 16–24 byte keys (the filter of
 * a sequence holding about 100 MiB of 1 KiB values). {@code present} probes keys in the
 * filter; {@code absent} probes other random keys, which mostly stop at the first clear bit.
 * {@code bitsPerKey} is the filter's budget: 10 (about 1% false positives) or 14 (the engine's
 * default).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BloomFilterProbeBenchmark extends SuiteBenchmark {

  private static final int KEYS = 100_000;
  private static final int PROBES = 1 << 12;

  @Param({"10", "14"})
  public int bitsPerKey;

  private BloomFilter filter;
  private byte[][] present;
  private byte[][] absent;
  private int next;

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(1);
    byte[][] keys = BenchFixtures.randomKeys(random, KEYS, 16, 24);
    filter = BloomFilter.build(Arrays.asList(keys), bitsPerKey);
    present = new byte[PROBES][];
    for (int i = 0; i < PROBES; i++) {
      present[i] = keys[random.nextInt(KEYS)];
    }
    // A different seed; a 16-byte-plus random key colliding with one in the filter is negligible.
    absent = BenchFixtures.randomKeys(new SplittableRandom(2), PROBES, 16, 24);
  }

  @Benchmark
  public boolean present() {
    next = (next + 1) & (PROBES - 1);
    return filter.mayContain(present[next]);
  }

  @Benchmark
  public boolean absent() {
    next = (next + 1) & (PROBES - 1);
    return filter.mayContain(absent[next]);
  }
}
