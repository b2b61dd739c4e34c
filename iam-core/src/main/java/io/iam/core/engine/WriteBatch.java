package io.iam.core.engine;

import io.iam.core.key.ValueType;
import io.iam.core.util.Coding;
import java.io.ByteArrayOutputStream;
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

  private final ByteArrayOutputStream ops = new ByteArrayOutputStream();
  private final byte[] scratch = new byte[10];
  private int count;

  /** Receives the operations of a batch in order. */
  public interface Handler {
    void put(byte[] key, byte[] value);

    void delete(byte[] key);
  }

  public WriteBatch put(byte[] key, byte[] value) {
    Objects.requireNonNull(key, "key must not be null");
    Objects.requireNonNull(value, "value must not be null");
    ops.write(ValueType.PUT.code());
    bytes(key);
    bytes(value);
    count++;
    return this;
  }

  public WriteBatch delete(byte[] key) {
    Objects.requireNonNull(key, "key must not be null");
    ops.write(ValueType.DELETE.code());
    bytes(key);
    count++;
    return this;
  }

  private void bytes(byte[] b) {
    int n = Coding.putVarint(scratch, 0, b.length);
    ops.write(scratch, 0, n);
    ops.write(b, 0, b.length);
  }

  public int count() {
    return count;
  }

  /** Bytes of keys and values plus framing. */
  public int byteSize() {
    return HEADER + ops.size();
  }

  public void clear() {
    ops.reset();
    count = 0;
  }

  /** The batch as a log record whose operations take sequences from {@code firstSequence}. */
  byte[] encode(long firstSequence) {
    byte[] out = new byte[HEADER + ops.size()];
    Coding.putFixed64(out, 0, firstSequence);
    Coding.putFixed32(out, 8, count);
    byte[] body = ops.toByteArray();
    System.arraycopy(body, 0, out, HEADER, body.length);
    return out;
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

  /** Replays an encoded batch's operations to {@code handler}, before applying any of them in
   *  full checking its structure.
   *
   * @throws IllegalArgumentException if the record is malformed
   */
  static void replay(byte[] record, Handler handler) {
    requireHeader(record);
    int expected = count(record);
    int found = walk(record, null);
    if (found != expected) {
      throw new IllegalArgumentException("batch says " + expected + " operations but holds " + found);
    }
    walk(record, handler);
  }

  private static int walk(byte[] record, Handler handler) {
    int[] pos = {HEADER};
    int n = 0;
    while (pos[0] < record.length) {
      ValueType type = ValueType.of(record[pos[0]++] & 0xFF);
      byte[] key = slice(record, pos);
      if (type == ValueType.PUT) {
        byte[] value = slice(record, pos);
        if (handler != null) {
          handler.put(key, value);
        }
      } else if (handler != null) {
        handler.delete(key);
      }
      n++;
    }
    return n;
  }

  private static byte[] slice(byte[] src, int[] pos) {
    long len = Coding.getVarint(src, pos, src.length);
    if (len < 0 || len > src.length - pos[0]) {
      throw new IllegalArgumentException("operation length " + len + " runs past the batch");
    }
    byte[] out = Arrays.copyOfRange(src, pos[0], pos[0] + (int) len);
    pos[0] += (int) len;
    return out;
  }

  private static void requireHeader(byte[] record) {
    if (record.length < HEADER) {
      throw new IllegalArgumentException("batch record shorter than its header: " + record.length);
    }
  }

  /** Replays this (unencoded) batch. */
  public void forEach(Handler handler) {
    walk(encode(0), handler);
  }
}
