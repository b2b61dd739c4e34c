package io.iam.bench.load;

import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/** How the phases after a load choose which loaded record to read (or to start a scan at). */
public enum KeyDistribution {
  /** Every loaded record equally likely. */
  UNIFORM {
    @Override
    LongSupplier chooser(long records, SplittableRandom random) {
      return () -> random.nextLong(records);
    }
  },
  /** YCSB's workload C default: Zipfian with constant 0.99, hot records scattered ({@link ScrambledZipfian}). */
  ZIPFIAN {
    @Override
    LongSupplier chooser(long records, SplittableRandom random) {
      return new ScrambledZipfian(records, random)::next;
    }
  };

  /**
   * Record numbers in {@code [0, records)} drawn from {@code random} by this distribution; not
   * thread-safe.
   */
  abstract LongSupplier chooser(long records, SplittableRandom random);

  /** How the command line writes it: {@code uniform}, {@code zipfian}. */
  public String cliName() {
    return CliNames.of(this);
  }

  /** Reads {@code uniform} or {@code zipfian} (any case). */
  public static KeyDistribution parse(String text) {
    return CliNames.parse(KeyDistribution.class, text);
  }
}
