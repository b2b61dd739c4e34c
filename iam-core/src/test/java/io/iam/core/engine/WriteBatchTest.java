package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.iam.core.key.ValueType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A batch hands its operations out the same way whether copied, as ranges, or replayed from the log. */
class WriteBatchTest {

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

  @Test
  void rangesCopiesAndTheLogRecordAgree() {
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
    List<String> replayed = new ArrayList<>();
    byte[] record = batch.encode(41);
    WriteBatch.replay(record, handler(replayed));
    assertEquals(EXPECTED, replayed);
    assertEquals(41, WriteBatch.sequence(record));
    assertEquals(4, WriteBatch.count(record));
  }

  @Test
  void aRecordCutShortAppliesNothing() {
    byte[] record = sample().encode(1);
    byte[] cut = Arrays.copyOf(record, record.length - 1);
    List<String> replayed = new ArrayList<>();
    assertThrows(IllegalArgumentException.class, () -> WriteBatch.replay(cut, handler(replayed)));
    assertEquals(List.of(), replayed, "the structure is checked before any operation is applied");
  }
}
