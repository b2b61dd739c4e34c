package io.iam.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecordCodecTest {

  private static Map<String, byte[]> record(int fields, int length) {
    Map<String, byte[]> r = new LinkedHashMap<>();
    for (int i = 0; i < fields; i++) {
      byte[] v = new byte[length];
      Arrays.fill(v, (byte) i);
      r.put("field" + i, v);
    }
    return r;
  }

  @Test
  void roundTripsEveryFieldInOrder() {
    Map<String, byte[]> r = record(10, 100);
    Map<String, byte[]> back = RecordCodec.decode(RecordCodec.encode(r));
    assertEquals(List.copyOf(r.keySet()), List.copyOf(back.keySet()));
    r.forEach((k, v) -> assertArrayEquals(v, back.get(k), k));
  }

  @Test
  void ycsbRecordSizeMatchesTheLayout() {
    // version + count + 10 x (name length + "fieldN" + value length varint (100 < 128) + 100 bytes)
    int expected = 1 + 1 + 10 * (1 + "field0".length() + 1 + 100);
    assertEquals(expected, RecordCodec.encode(record(10, 100)).length);
  }

  @Test
  void longFieldsAndUnicodeNamesRoundTrip() {
    Map<String, byte[]> r = new LinkedHashMap<>();
    r.put("ß-name", new byte[300]);
    r.put("", new byte[0]);
    r.put("big", new byte[70_000]);
    Map<String, byte[]> back = RecordCodec.decode(RecordCodec.encode(r));
    assertEquals(r.keySet(), back.keySet());
    assertEquals(70_000, back.get("big").length);
    assertEquals(300, back.get("ß-name").length);
  }

  @Test
  void decodesOnlyTheFieldsAsked() {
    Map<String, byte[]> back = RecordCodec.decode(RecordCodec.encode(record(10, 5)), Set.of("field3", "field7", "nope"));
    assertEquals(Set.of("field3", "field7"), back.keySet());
    assertArrayEquals(new byte[] {3, 3, 3, 3, 3}, back.get("field3"));
  }

  @Test
  void mergeReplacesGivenFieldsAndKeepsTheRest() {
    Map<String, byte[]> update = new LinkedHashMap<>();
    update.put("field1", "new".getBytes(StandardCharsets.UTF_8));
    update.put("extra", "x".getBytes(StandardCharsets.UTF_8));
    Map<String, byte[]> merged = RecordCodec.decode(RecordCodec.merge(RecordCodec.encode(record(3, 2)), update));
    assertEquals(List.of("field0", "field1", "field2", "extra"), List.copyOf(merged.keySet()));
    assertArrayEquals("new".getBytes(StandardCharsets.UTF_8), merged.get("field1"));
    assertArrayEquals(new byte[] {2, 2}, merged.get("field2"));
  }

  @Test
  void rejectsOtherVersionsAndDamagedRecords() {
    byte[] good = RecordCodec.encode(record(2, 4));
    byte[] otherVersion = good.clone();
    otherVersion[0] = 2;
    assertEquals("not a record of format version 1: version byte 2",
        assertThrows(IllegalArgumentException.class, () -> RecordCodec.decode(otherVersion)).getMessage());
    assertEquals("not a record of format version 1: empty value",
        assertThrows(IllegalArgumentException.class, () -> RecordCodec.decode(new byte[0])).getMessage());
    byte[] truncated = Arrays.copyOf(good, good.length - 1);
    assertThrows(IllegalArgumentException.class, () -> RecordCodec.decode(truncated));
    byte[] trailing = Arrays.copyOf(good, good.length + 1);
    assertEquals("record has 1 bytes after its last field",
        assertThrows(IllegalArgumentException.class, () -> RecordCodec.decode(trailing)).getMessage());
  }
}
