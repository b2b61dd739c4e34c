package io.iam.bench.load;

/** The order in which a load inserts keys. */
public enum KeyOrder {
  /** YCSB's default: record numbers hashed with FNV-1a 64, so keys arrive in random order. */
  HASH,
  /** Record numbers zero-padded, so keys arrive sorted. */
  SEQUENTIAL;

  /** How the command line writes it: {@code hash}, {@code sequential}. */
  public String cliName() {
    return CliNames.of(this);
  }

  /** Reads {@code hash} or {@code sequential} (any case). */
  public static KeyOrder parse(String text) {
    return CliNames.parse(KeyOrder.class, text);
  }
}
