package io.iam.bench.load;

import io.iam.bench.util.RandomBytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
 * in insert order and have the same 23-byte length as most hashed keys. With {@link
 * KeyOrder#RANDOM}, put {@code n} writes the hashed key of record {@code r(n)}, a uniform draw from
 * {@code [0, records)} made from {@code seed} and {@code n} (SplitMix64): keys repeat, so some puts
 * overwrite, and {@link #liveBytes()} counts each distinct key once.
 *
 * <p>Values are {@code valueSize} bytes from a {@link SplittableRandom} seeded with {@code seed}:
 * the same seed gives the same values, and they do not compress.
 *
 * <p>{@link #writers()} client threads put the records: writer {@code w} puts {@code n = w, w +
 * writers, w + 2 writers, ...}, in that order, so that keys arrive in about the order one writer
 * puts them. Each writer draws its values from a stream of its own ({@link #writerValues()}): a
 * single writer's is the workload's own, that of {@link #nextValue()}, so one writer puts exactly
 * the values it always did; with more, writer {@code w}'s is the {@code w}-th {@link
 * SplittableRandom#split()} of it, so the value each put writes depends on the seed and the number
 * of writers alone, never on how the threads interleave (though in a random load, which of two
 * writers' puts of one key lands last does).
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
  private final int writers;
  private final SplittableRandom random;

  /** A workload put by one writer. */
  public LoadWorkload(long records, int valueSize, KeyOrder order, long seed) {
    this(records, valueSize, order, seed, 1);
  }

  /** A workload put by {@code writers} client threads at once; at least 1. */
  public LoadWorkload(long records, int valueSize, KeyOrder order, long seed, int writers) {
    if (records < 1) {
      throw new IllegalArgumentException("records must be at least 1: " + records);
    }
    if (order == KeyOrder.RANDOM && records > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a random load takes at most " + Integer.MAX_VALUE + " records: " + records);
    }
    if (valueSize < 0) {
      throw new IllegalArgumentException("valueSize must not be negative: " + valueSize);
    }
    if (writers < 1) {
      throw new IllegalArgumentException("writers must be at least 1: " + writers);
    }
    this.records = records;
    this.valueSize = valueSize;
    this.order = Objects.requireNonNull(order);
    this.seed = seed;
    this.writers = writers;
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

  /** Client threads that put the records at once. */
  public int writers() {
    return writers;
  }

  /**
   * The key of put {@code recordNumber} (0-based), as ASCII bytes. Every key a load writes is the key
   * of one of its put numbers, so reads of {@code key(n)} for {@code n} in {@code [0, records)} find
   * a loaded key in every order.
   */
  public byte[] key(long recordNumber) {
    if (order == KeyOrder.RANDOM) {
      return keyName(drawn(recordNumber), KeyOrder.HASH).getBytes(StandardCharsets.US_ASCII);
    }
    return keyName(recordNumber, order).getBytes(StandardCharsets.US_ASCII);
  }

  /** The record that put {@code n} of a random load writes: uniform in {@code [0, records)}. */
  private long drawn(long n) {
    long z = seed + (n + 1) * 0x9E3779B97F4A7C15L; // SplitMix64 of the put number
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return Math.floorMod(z, records);
  }

  /**
   * Key plus value bytes of the records a load leaves: every put's for the hashed and sequential
   * orders, whose keys are distinct; for a random load each distinct key once. Computed from the
   * keys alone (a pass over the put numbers for a random load).
   */
  public long liveBytes() {
    long bytes = 0;
    if (order != KeyOrder.RANDOM) {
      for (long n = 0; n < records; n++) {
        bytes += keyName(n, order).length() + valueSize;
      }
      return bytes;
    }
    java.util.BitSet seen = new java.util.BitSet();
    for (long n = 0; n < records; n++) {
      int r = (int) drawn(n); // records ≤ Integer.MAX_VALUE for a random load
      if (!seen.get(r)) {
        seen.set(r);
        bytes += keyName(r, KeyOrder.HASH).length() + valueSize;
      }
    }
    return bytes;
  }

  /** The next value: a new array of {@code valueSize} pseudo-random bytes. */
  public byte[] nextValue() {
    return value(random);
  }

  /** A stream of values, to be drawn from by one thread at a time. */
  @FunctionalInterface
  public interface Values {
    /** The next value: a new array of {@code valueSize} pseudo-random bytes. */
    byte[] next();
  }

  /**
   * The value streams of the writers, writer {@code w}'s at index {@code w}: for one writer {@link
   * #nextValue()}'s own; for more, one {@link SplittableRandom#split()} of it each, in writer order
   * (which moves it on: later {@link #nextValue()}s, such as overwrites', follow the splits).
   */
  public List<Values> writerValues() {
    if (writers == 1) {
      return List.of(this::nextValue);
    }
    List<Values> values = new ArrayList<>(writers);
    for (int w = 0; w < writers; w++) {
      SplittableRandom own = random.split();
      values.add(() -> value(own));
    }
    return values;
  }

  private byte[] value(SplittableRandom from) {
    byte[] value = new byte[valueSize];
    RandomBytes.fill(from, value);
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
