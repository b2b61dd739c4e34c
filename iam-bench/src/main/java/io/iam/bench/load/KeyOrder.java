package io.iam.bench.load;

/** The order in which a load inserts keys. */
public enum KeyOrder {
  /** YCSB's default: record numbers hashed with FNV-1a 64, so keys arrive in random order. */
  HASH,
  /** Record numbers zero-padded, so keys arrive sorted. */
  SEQUENTIAL,
  /**
   * The IAM paper's random load (db_bench's fillrandom): each put draws a record number uniformly
   * from {@code [0, records)}, with repeats, and writes its hashed key; a repeat overwrites.
   */
  RANDOM;

  /** How the command line writes it: {@code hash}, {@code sequential}, {@code random}. */
  public String cliName() {
    return CliNames.of(this);
  }

  /** Reads {@code hash}, {@code sequential} or {@code random} (any case). */
  public static KeyOrder parse(String text) {
    return CliNames.parse(KeyOrder.class, text);
  }
}
