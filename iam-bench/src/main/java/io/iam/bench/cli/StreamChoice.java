package io.iam.bench.cli;

import io.iam.bench.cli.CliConverters.SizeRange;
import io.iam.core.option.InvalidOptionsException;
import io.iam.core.sim.FlushStream;
import io.iam.core.sim.RandomFlushes;
import io.iam.core.sim.UniformFlushes;
import io.iam.core.sim.UpdateFlushes;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the flush stream from the command line: uniform lengths (the default), uniformly random
 * lengths ({@code --flush-random}) or the paper's update model ({@code --updates}).
 *
 * @param flushSize length of every flush, or the memtable capacity for the update model
 * @param random {@code --flush-random}, or {@code null}
 * @param updates {@code --updates}, or {@code null}
 * @param recordSize record length for the update model
 * @param seed seed of the random streams
 */
record StreamChoice(long flushSize, SizeRange random, Double updates, long recordSize, long seed) {

  /** The Zipf exponent of the update model, as in the paper (and YCSB). */
  static final double ZIPF_THETA = 0.99;

  /** @throws InvalidOptionsException listing every problem with the stream options */
  FlushStream create() {
    List<String> problems = new ArrayList<>();
    if (flushSize < 1) {
      problems.add("--flush-size must be at least 1 byte");
    }
    if (random != null && updates != null) {
      problems.add("--flush-random and --updates cannot be combined");
    }
    if (random != null && (random.min() < 1 || random.max() < random.min())) {
      problems.add("--flush-random " + random + " needs 0 < MIN <= MAX");
    }
    long records = recordSize < 1 ? 0 : flushSize / recordSize;
    if (updates != null) {
      if (!(updates >= 0 && updates < 1)) {
        problems.add("--updates " + updates + " is out of range: allowed 0 (inclusive) to 1 (exclusive)");
      }
      if (recordSize < 1) {
        problems.add("--record-size must be at least 1 byte");
      } else if (records < 1 || records > Integer.MAX_VALUE) {
        problems.add("--flush-size / --record-size gives " + records
            + " records per flush: allowed 1 to " + Integer.MAX_VALUE);
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidOptionsException("invalid flush stream", problems);
    }
    if (updates != null) {
      return new UpdateFlushes((int) records, recordSize, updates, ZIPF_THETA, seed);
    }
    if (random != null) {
      return new RandomFlushes(random.min(), random.max(), seed);
    }
    return new UniformFlushes(flushSize);
  }
}
