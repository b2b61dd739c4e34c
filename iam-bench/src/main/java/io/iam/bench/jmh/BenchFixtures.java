package io.iam.bench.jmh;

import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.ValueType;
import io.iam.core.table.MSTableWriter;
import io.iam.core.table.SequenceWriter;
import io.iam.core.table.TableOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Setup shared by the microbenchmarks: temporary directories, seeded random keys and values, and
 * MSTable files of numbered keys.
 */
final class BenchFixtures {

  /** The engine's default key order: bytewise user keys, newest sequence first. */
  static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);

  private BenchFixtures() {}

  /** A new directory under {@code java.io.tmpdir}; remove it with {@link #deleteTree(Path)}. */
  static Path tempDir(String prefix) throws IOException {
    return Files.createTempDirectory(prefix);
  }

  /** Deletes {@code dir} and everything below it; does nothing if it is null or gone. */
  static void deleteTree(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** {@code count} random keys of {@code minLength} to {@code maxLength} bytes (inclusive). */
  static byte[][] randomKeys(SplittableRandom random, int count, int minLength, int maxLength) {
    return randomArrays(random, count, minLength, maxLength);
  }

  /** {@code count} random byte arrays of {@code minLength} to {@code maxLength} bytes (inclusive). */
  static byte[][] randomArrays(SplittableRandom random, int count, int minLength, int maxLength) {
    byte[][] arrays = new byte[count][];
    for (int i = 0; i < count; i++) {
      arrays[i] = new byte[random.nextInt(minLength, maxLength + 1)];
      random.nextBytes(arrays[i]);
    }
    return arrays;
  }

  /** User key {@code i}: "user" and {@code i} in 20 digits, 24 bytes that sort by {@code i}. */
  static byte[] userKey(int i) {
    return String.format("user%020d", i).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Writes keys 0 to {@code entries - 1} (sequence number {@code 1 + i}, one random value of {@code
   * valueBytes} for all) to a new MSTable, spread round-robin over {@code sequences} sequences.
   *
   * @param capacity the file's capacity, 0 for a compact file (see {@link MSTableWriter#create})
   */
  static void writeTable(Path file, long capacity, TableOptions opts, int entries, int sequences, int valueBytes)
      throws IOException {
    byte[] value = new byte[valueBytes];
    new SplittableRandom(1).nextBytes(value);
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, file, 1, capacity, opts, CMP)) {
      for (int s = 0; s < sequences; s++) {
        SequenceWriter seq = w.beginSequence();
        for (int i = s; i < entries; i += sequences) {
          seq.add(InternalKey.encode(userKey(i), 1 + i, ValueType.PUT), value);
        }
        seq.finish();
      }
    }
  }
}
