package io.iam.bench.ycsb;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A YCSB record (field name to bytes) as one value, the same for every engine:
 *
 * <pre>
 * version      1 byte, {@value #VERSION}
 * fieldCount   varint
 * fieldCount × (nameLength varint, name UTF-8, valueLength varint, value bytes)
 * </pre>
 *
 * Varints are unsigned LEB128 (7 bits a byte, low bits first, as protobuf and RocksDB write them).
 * A YCSB record of 10 fields {@code field0}..{@code field9} of 100 bytes is 1 + 1 + 10 × (1 + 6 + 1 +
 * 100) = 1,082 bytes. Fields keep their order; a field given twice keeps its last value. A reader
 * meets any other version byte with an {@link IllegalArgumentException}, so that a later format can
 * be told apart.
 */
public final class RecordCodec {

  /** The format version this class writes and reads. */
  public static final byte VERSION = 1;

  private RecordCodec() {}

  /** The record {@code fields} as one value. */
  public static byte[] encode(Map<String, byte[]> fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64 + 128 * fields.size());
    out.write(VERSION);
    writeVarint(out, fields.size());
    for (Map.Entry<String, byte[]> f : fields.entrySet()) {
      byte[] name = f.getKey().getBytes(StandardCharsets.UTF_8);
      writeVarint(out, name.length);
      out.write(name, 0, name.length);
      writeVarint(out, f.getValue().length);
      out.write(f.getValue(), 0, f.getValue().length);
    }
    return out.toByteArray();
  }

  /** Every field of {@code value}, in the order they were written. */
  public static Map<String, byte[]> decode(byte[] value) {
    return decode(value, null);
  }

  /**
   * The fields of {@code value} named in {@code wanted}, or all of them if it is null.
   *
   * @throws IllegalArgumentException if {@code value} is not a record of this format
   */
  public static Map<String, byte[]> decode(byte[] value, Set<String> wanted) {
    if (value.length == 0 || value[0] != VERSION) {
      throw new IllegalArgumentException("not a record of format version " + VERSION + ": "
          + (value.length == 0 ? "empty value" : "version byte " + value[0]));
    }
    int[] pos = {1};
    long count = readVarint(value, pos);
    Map<String, byte[]> fields = new LinkedHashMap<>();
    for (long i = 0; i < count; i++) {
      int nameLength = length(value, pos);
      String name = new String(value, pos[0], nameLength, StandardCharsets.UTF_8);
      pos[0] += nameLength;
      int valueLength = length(value, pos);
      if (wanted == null || wanted.contains(name)) {
        byte[] field = new byte[valueLength];
        System.arraycopy(value, pos[0], field, 0, valueLength);
        fields.put(name, field);
      }
      pos[0] += valueLength;
    }
    if (pos[0] != value.length) {
      throw new IllegalArgumentException("record has " + (value.length - pos[0]) + " bytes after its last field");
    }
    return fields;
  }

  /** {@code existing} with {@code updates} written over it: new fields added, given fields replaced. */
  public static byte[] merge(byte[] existing, Map<String, byte[]> updates) {
    Map<String, byte[]> fields = decode(existing);
    fields.putAll(updates);
    return encode(fields);
  }

  private static int length(byte[] value, int[] pos) {
    long n = readVarint(value, pos);
    if (n > value.length - pos[0]) {
      throw new IllegalArgumentException("record truncated: a length of " + n + " at byte " + pos[0] + " of "
          + value.length);
    }
    return (int) n;
  }

  private static void writeVarint(ByteArrayOutputStream out, int n) {
    while ((n & ~0x7F) != 0) {
      out.write((n & 0x7F) | 0x80);
      n >>>= 7;
    }
    out.write(n);
  }

  private static long readVarint(byte[] b, int[] pos) {
    long n = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (pos[0] >= b.length) {
        throw new IllegalArgumentException("record truncated in a varint at byte " + pos[0]);
      }
      int x = b[pos[0]++];
      n |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        return n;
      }
    }
    throw new IllegalArgumentException("varint longer than 5 bytes before byte " + pos[0]);
  }
}
