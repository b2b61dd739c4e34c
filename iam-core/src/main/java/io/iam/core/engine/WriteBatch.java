package io.iam.core.engine;

import io.iam.core.key.ValueType;
import io.iam.core.memtable.MemTable;
import io.iam.core.util.Coding;
import java.util.Arrays;
import java.util.Objects;

/**
 * Puts and deletes applied atomically: a reader sees all of a batch or none of it, and after a
 * crash a batch is either wholly recovered or wholly absent. Not thread-safe; build it on one
 * thread, then hand it to {@link IamStore#write}.
 *
 * <p>Encoded (in the write-ahead log) as the first sequence number (8 bytes), the count (4), then
 * per operation: type (1), varint key length, key, and for puts varint value length and value.
 */
public final class WriteBatch {

  static final int HEADER = 12;

  /** The encoded batch: a header (stamped when logged) followed by the operations. */
  private byte[] buf = new byte[64];
  private int size = HEADER;
  private int count;

  /** Receives the operations of a batch in order. */
  public interface Handler {
    void put(byte[] key, byte[] value);

    void delete(byte[] key);
  }

  /**
   * Receives the operations of a batch as ranges of its encoded bytes, without copies: {@code
   * buf} is valid only during the call and must not be modified; a delete has {@code valueLength}
   * 0.
   */
  interface RangeHandler {
    void op(ValueType type, byte[] buf, int keyOffset, int keyLength, int valueOffset, int valueLength);
  }

  public WriteBatch put(byte[] key, byte[] value) {
    Objects.requireNonNull(key, "key must not be null");
    Objects.requireNonNull(value, "value must not be null");
    reserve(1 + 10 + key.length + 10 + value.length);
    buf[size++] = (byte) ValueType.PUT.code();
    bytes(key);
    bytes(value);
    count++;
    return this;
  }

  public WriteBatch delete(byte[] key) {
    Objects.requireNonNull(key, "key must not be null");
    reserve(1 + 10 + key.length);
    buf[size++] = (byte) ValueType.DELETE.code();
    bytes(key);
    count++;
    return this;
  }

  private void reserve(int more) {
    if (size + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
  }

  private void bytes(byte[] b) {
    size = Coding.putVarint(buf, size, b.length);
    System.arraycopy(b, 0, buf, size, b.length);
    size += b.length;
  }

  public int count() {
    return count;
  }

  /** Bytes of keys and values plus framing. */
  public int byteSize() {
    return size;
  }

  public void clear() {
    size = HEADER;
    count = 0;
  }

  /**
   * Stamps the header for operations taking sequences from {@code firstSequence}; afterwards
   * {@link #buffer()} up to {@link #byteSize()} is the log record. No copy is made.
   */
  void stamp(long firstSequence) {
    Coding.putFixed64(buf, 0, firstSequence);
    Coding.putFixed32(buf, 8, count);
  }

  /** The encoded batch (valid up to {@link #byteSize()}), for the log writer. */
  byte[] buffer() {
    return buf;
  }

  /** The batch as a standalone log record whose operations take sequences from {@code firstSequence}. */
  byte[] encode(long firstSequence) {
    stamp(firstSequence);
    return Arrays.copyOf(buf, size);
  }

  /** The first sequence number of an encoded batch. */
  static long sequence(byte[] record) {
    requireHeader(record);
    return Coding.getFixed64(record, 0);
  }

  /** The operation count of an encoded batch. */
  static int count(byte[] record) {
    requireHeader(record);
    return Coding.getFixed32(record, 8);
  }

  /**
   * Adds an encoded batch's operations to {@code table}, numbered from the record's first
   * sequence, after checking its whole structure first, so a malformed record adds nothing.
   *
   * @return the bytes of the operations' keys and values
   * @throws IllegalArgumentException if the record is malformed
   */
  static long replay(byte[] record, MemTable table) {
    requireHeader(record);
    int expected = count(record);
    int found = visit(record, record.length, null);
    if (found != expected) {
      throw new IllegalArgumentException("batch says " + expected + " operations but holds " + found);
    }
    return apply(record, record.length, table, sequence(record));
  }

  /**
   * Adds this batch's operations to {@code table}, numbered from {@code firstSequence}; the table
   * copies each key and value once, from the batch.
   *
   * @return the bytes of the operations' keys and values
   */
  long applyTo(MemTable table, long firstSequence) {
    return apply(buf, size, table, firstSequence);
  }

  private static long apply(byte[] record, int end, MemTable table, long firstSequence) {
    long[] next = {firstSequence};
    long[] bytes = {0};
    visit(record, end, (type, b, keyOffset, keyLength, valueOffset, valueLength) -> {
      table.add(next[0]++, type, b, keyOffset, keyLength, valueOffset, valueLength);
      bytes[0] += keyLength + valueLength;
    });
    return bytes[0];
  }

  /** Checks and visits the operations of {@code record[HEADER, end)}; returns how many there are. */
  private static int visit(byte[] record, int end, RangeHandler handler) {
    int[] pos = {HEADER};
    int n = 0;
    while (pos[0] < end) {
      ValueType type = ValueType.of(record[pos[0]++] & 0xFF);
      int keyLength = length(record, pos, end);
      int keyOffset = pos[0];
      pos[0] += keyLength;
      int valueLength = 0;
      int valueOffset = pos[0];
      if (type == ValueType.PUT) {
        valueLength = length(record, pos, end);
        valueOffset = pos[0];
        pos[0] += valueLength;
      }
      if (handler != null) {
        handler.op(type, record, keyOffset, keyLength, valueOffset, valueLength);
      }
      n++;
    }
    return n;
  }

  /** Reads a length at {@code pos} and checks that that many bytes follow before {@code end}. */
  private static int length(byte[] src, int[] pos, int end) {
    long len = Coding.getVarint(src, pos, end);
    if (len < 0 || len > end - pos[0]) {
      throw new IllegalArgumentException("operation length " + len + " runs past the batch");
    }
    return (int) len;
  }

  private static void requireHeader(byte[] record) {
    if (record.length < HEADER) {
      throw new IllegalArgumentException("batch record shorter than its header: " + record.length);
    }
  }

  /** Replays this batch's operations in order. */
  public void forEach(Handler handler) {
    visit(buf, size, (type, b, keyOffset, keyLength, valueOffset, valueLength) -> {
      byte[] key = Arrays.copyOfRange(b, keyOffset, keyOffset + keyLength);
      if (type == ValueType.PUT) {
        handler.put(key, Arrays.copyOfRange(b, valueOffset, valueOffset + valueLength));
      } else {
        handler.delete(key);
      }
    });
  }

  /** Hands this batch's operations, in order, to {@code handler} as ranges of its bytes. */
  void forEachRange(RangeHandler handler) {
    visit(buf, size, handler);
  }
}
