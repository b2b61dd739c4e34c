package io.iam.bench.load;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The records of a load: YCSB's load-phase keys and incompressible values.
 *
 * <p>Keys are built as YCSB's {@code CoreWorkload} builds them for record number {@code n}: with
 * hashed inserts (YCSB's default, {@link KeyOrder#HASH}) {@code "user" + fnvhash64(n)}, where
 * {@code fnvhash64} is FNV-1a 64 over the eight bytes of {@code n}, least significant first, made
 * non-negative with {@link Math#abs(long)}; YCSB's default zero padding of 1 adds no zeros. With
 * {@link KeyOrder#SEQUENTIAL}, {@code "user"} plus {@code n} zero-padded to 19 digits, so keys sort
 * in insert order and have the same 23-byte length as most hashed keys.
 *
 * <p>Values are {@code valueSize} bytes from a {@link SplittableRandom} seeded with {@code seed}:
 * the same seed gives the same values, and they do not compress.
 */
public final class LoadWorkload {

  /** Digits of the largest long: the padding of sequential keys. */
  static final int SEQUENTIAL_DIGITS = 19;

  private static final long FNV_OFFSET_BASIS_64 = 0xCBF29CE484222325L;
  private static final long FNV_PRIME_64 = 0x100000001B3L;

  private final long records;
  private final int valueSize;
  private final KeyOrder order;
  private final long seed;
  private final SplittableRandom random;

  public LoadWorkload(long records, int valueSize, KeyOrder order, long seed) {
    if (records < 1) {
      throw new IllegalArgumentException("records must be at least 1: " + records);
    }
    if (valueSize < 0) {
      throw new IllegalArgumentException("valueSize must not be negative: " + valueSize);
    }
    this.records = records;
    this.valueSize = valueSize;
    this.order = Objects.requireNonNull(order);
    this.seed = seed;
    this.random = new SplittableRandom(seed);
  }

  public long records() {
    return records;
  }

  public int valueSize() {
    return valueSize;
  }

  public KeyOrder order() {
    return order;
  }

  public long seed() {
    return seed;
  }

  /** The key of record {@code recordNumber} (0-based), as ASCII bytes. */
  public byte[] key(long recordNumber) {
    return keyName(recordNumber, order).getBytes(StandardCharsets.US_ASCII);
  }

  /** The next value: a new array of {@code valueSize} pseudo-random bytes. */
  public byte[] nextValue() {
    byte[] value = new byte[valueSize];
    random.nextBytes(value);
    return value;
  }

  /** The key name of a record number in an order, e.g. {@code user6284781860667377211}. */
  public static String keyName(long recordNumber, KeyOrder order) {
    if (order == KeyOrder.HASH) {
      return "user" + fnvhash64(recordNumber);
    }
    String digits = Long.toString(recordNumber);
    StringBuilder key = new StringBuilder(4 + Math.max(SEQUENTIAL_DIGITS, digits.length())).append("user");
    for (int i = digits.length(); i < SEQUENTIAL_DIGITS; i++) {
      key.append('0');
    }
    return key.append(digits).toString();
  }

  /**
   * FNV-1a 64 of the eight bytes of {@code value}, least significant byte first, then {@link
   * Math#abs(long)}: the hash YCSB uses to scatter record numbers.
   */
  public static long fnvhash64(long value) {
    long hash = FNV_OFFSET_BASIS_64;
    long rest = value;
    for (int i = 0; i < Long.BYTES; i++) {
      hash ^= rest & 0xFF;
      hash *= FNV_PRIME_64;
      rest >>= 8;
    }
    return Math.abs(hash);
  }
}
