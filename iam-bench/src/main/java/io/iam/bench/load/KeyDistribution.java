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
  },
  /**
   * Scans only: every scan starts before the smallest key, so with {@code --scan-length} at least
   * the records it reads the whole store in key order (the IAM paper's sequential read).
   */
  FIRST {
    @Override
    LongSupplier chooser(long records, SplittableRandom random) {
      return () -> 0;
    }

    @Override
    boolean fromFirstKey() {
      return true;
    }
  };

  /** The key before every other: where a {@link #FIRST} scan starts. */
  static final byte[] BEFORE_ALL = new byte[0];

  /** Whether operations start before the smallest key instead of at a chosen record's key. */
  boolean fromFirstKey() {
    return false;
  }

  /**
   * Record numbers in {@code [0, records)} drawn from {@code random} by this distribution; not
   * thread-safe.
   */
  abstract LongSupplier chooser(long records, SplittableRandom random);

  /** How the command line writes it: {@code uniform}, {@code zipfian}, {@code first}. */
  public String cliName() {
    return CliNames.of(this);
  }

  /** Reads {@code uniform}, {@code zipfian} or {@code first} (any case). */
  public static KeyDistribution parse(String text) {
    return CliNames.parse(KeyDistribution.class, text);
  }
}
