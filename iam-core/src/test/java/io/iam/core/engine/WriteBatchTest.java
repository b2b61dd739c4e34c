package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.ValueType;
import io.iam.core.memtable.MemIterator;
import io.iam.core.memtable.MemTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A batch hands out the same operations whether copied, as ranges, applied to a memtable or replayed from the log. */
class WriteBatchTest {

  private static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static WriteBatch sample() {
    byte[] big = new byte[300]; // a value whose length takes a two-byte varint
    Arrays.fill(big, (byte) 7);
    return new WriteBatch().put(b("a"), b("one")).delete(b("bb")).put(b("c"), new byte[0]).put(b(""), big);
  }

  private static final List<String> EXPECTED = List.of("PUT a=one", "DELETE bb", "PUT c=", "PUT =" + "\u0007".repeat(300));

  private static String text(ValueType type, byte[] key, byte[] value) {
    String v = new String(value, StandardCharsets.ISO_8859_1);
    return type + " " + new String(key, StandardCharsets.UTF_8) + (type == ValueType.PUT ? "=" + v : "");
  }

  private static List<String> copied(WriteBatch batch) {
    List<String> ops = new ArrayList<>();
    batch.forEach(handler(ops));
    return ops;
  }

  private static WriteBatch.Handler handler(List<String> ops) {
    return new WriteBatch.Handler() {
      @Override
      public void put(byte[] key, byte[] value) {
        ops.add(text(ValueType.PUT, key, value));
      }

      @Override
      public void delete(byte[] key) {
        ops.add(text(ValueType.DELETE, key, new byte[0]));
      }
    };
  }

  /** The memtable's entries in sequence order, as text, with each entry's sequence. */
  private static List<String> contents(MemTable table) {
    java.util.TreeMap<Long, String> bySequence = new java.util.TreeMap<>();
    MemIterator it = table.iterator();
    for (it.seekToFirst(); it.valid(); it.next()) {
      byte[] k = it.key();
      bySequence.put(InternalKey.sequence(k), text(InternalKey.type(k), InternalKey.userKey(k), it.value()));
    }
    List<String> out = new ArrayList<>();
    bySequence.forEach((seq, op) -> out.add(seq + " " + op));
    return out;
  }

  private static List<String> numbered(long first) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < EXPECTED.size(); i++) {
      out.add((first + i) + " " + EXPECTED.get(i));
    }
    return out;
  }

  @Test
  void rangesCopiesTheMemtableAndTheLogRecordAgree() {
    WriteBatch batch = sample();
    List<String> ranges = new ArrayList<>();
    batch.forEachRange((type, buf, keyOffset, keyLength, valueOffset, valueLength) -> {
      if (type == ValueType.DELETE) {
        assertEquals(0, valueLength, "a delete has no value");
      }
      ranges.add(text(type, Arrays.copyOfRange(buf, keyOffset, keyOffset + keyLength),
          Arrays.copyOfRange(buf, valueOffset, valueOffset + valueLength)));
    });
    assertEquals(EXPECTED, ranges);
    assertEquals(EXPECTED, copied(batch));

    MemTable applied = new MemTable(CMP);
    long bytes = batch.applyTo(applied, 7);
    assertEquals(numbered(7), contents(applied));
    assertEquals(1 + 3 + 2 + 1 + 0 + 300, bytes, "keys and values: a=one, bb, c=, and 300 bytes under the empty key");

    byte[] record = batch.encode(41);
    assertEquals(41, WriteBatch.sequence(record));
    assertEquals(4, WriteBatch.count(record));
    MemTable replayed = new MemTable(CMP);
    assertEquals(bytes, WriteBatch.replay(record, replayed));
    assertEquals(numbered(41), contents(replayed));
  }

  @Test
  void aRecordCutShortAddsNothing() {
    byte[] record = sample().encode(1);
    byte[] cut = Arrays.copyOf(record, record.length - 1);
    MemTable table = new MemTable(CMP);
    assertThrows(IllegalArgumentException.class, () -> WriteBatch.replay(cut, table));
    assertTrue(table.isEmpty(), "the structure is checked before any operation is added");
    byte[] miscounted = record.clone();
    miscounted[8] = 5; // the count says 5; the record holds 4
    assertThrows(IllegalArgumentException.class, () -> WriteBatch.replay(miscounted, table));
    assertTrue(table.isEmpty());
  }
}
