package io.iam.core.memtable;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.ValueType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class MemTableTest {

  private static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);

  private static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  private static String s(byte[] b) {
    return new String(b, UTF_8);
  }

  /** Reads the whole memtable through a fresh iterator. */
  private static List<byte[]> keys(MemTable mem) {
    List<byte[]> out = new ArrayList<>();
    MemIterator it = mem.iterator();
    for (it.seekToFirst(); it.valid(); it.next()) {
      out.add(it.key());
    }
    return out;
  }

  @Test
  void emptyTable() {
    MemTable mem = new MemTable(CMP);
    assertTrue(mem.isEmpty());
    assertEquals(0, mem.entries());
    assertEquals(0, mem.approximateBytes());
    assertEquals(-1, mem.smallestSequence());
    assertEquals(-1, mem.largestSequence());
    assertTrue(mem.get(b("a"), 100).isAbsent());
    MemIterator it = mem.iterator();
    assertFalse(it.valid());
    it.seekToFirst();
    assertFalse(it.valid());
    assertThrows(NoSuchElementException.class, it::key);
    assertThrows(NoSuchElementException.class, it::next);
    assertSame(CMP, mem.comparator());
  }

  @Test
  void versionsOrderNewestFirstWithinAKey() {
    MemTable mem = new MemTable(CMP);
    mem.add(5, ValueType.PUT, b("b"), b("b5"));
    mem.add(3, ValueType.PUT, b("a"), b("a3"));
    mem.add(9, ValueType.DELETE, b("a"), new byte[0]);
    mem.add(7, ValueType.PUT, b("a"), b("a7"));
    mem.add(1, ValueType.PUT, b("c"), b("c1"));
    List<String> seen = new ArrayList<>();
    MemIterator it = mem.iterator();
    for (it.seekToFirst(); it.valid(); it.next()) {
      byte[] k = it.key();
      seen.add(s(InternalKey.userKey(k)) + "@" + InternalKey.sequence(k) + ":" + InternalKey.type(k) + "=" + s(it.value()));
    }
    assertEquals(List.of("a@9:DELETE=", "a@7:PUT=a7", "a@3:PUT=a3", "b@5:PUT=b5", "c@1:PUT=c1"), seen);
    assertEquals(5, mem.entries());
    assertFalse(mem.isEmpty());
    assertEquals(1, mem.smallestSequence());
    assertEquals(9, mem.largestSequence());
  }

  @Test
  void snapshotReadsSeeExactlyTheVersionsAtOrBelowTheSnapshot() {
    MemTable mem = new MemTable(CMP);
    mem.add(10, ValueType.PUT, b("k"), b("v10"));
    mem.add(20, ValueType.PUT, b("k"), b("v20"));
    mem.add(30, ValueType.DELETE, b("k"), null);
    mem.add(40, ValueType.PUT, b("k"), b("v40"));
    mem.add(15, ValueType.PUT, b("j"), b("j15"));
    mem.add(25, ValueType.PUT, b("ka"), b("ka25"));
    assertTrue(mem.get(b("k"), 9).isAbsent());
    assertEquals("v10", s(mem.get(b("k"), 10).value()));
    assertEquals(10, mem.get(b("k"), 19).sequence());
    assertEquals("v20", s(mem.get(b("k"), 20).value()));
    assertEquals("v20", s(mem.get(b("k"), 29).value()));
    Lookup deleted = mem.get(b("k"), 30);
    assertTrue(deleted.isDeleted());
    assertEquals(30, deleted.sequence());
    assertThrows(IllegalStateException.class, deleted::value);
    assertTrue(mem.get(b("k"), 39).isDeleted(), "the delete hides the older puts");
    assertEquals("v40", s(mem.get(b("k"), 40).value()));
    assertEquals("v40", s(mem.get(b("k"), Long.MAX_VALUE).value()));
    // Neighbouring keys never leak into each other's lookups.
    assertTrue(mem.get(b("j"), 14).isAbsent());
    assertEquals("j15", s(mem.get(b("j"), 100).value()));
    assertTrue(mem.get(b("ka"), 24).isAbsent());
    assertTrue(mem.get(b("kb"), 100).isAbsent());
    assertTrue(mem.get(b(""), 100).isAbsent());
    assertEquals(Lookup.Status.FOUND, mem.get(b("ka"), 25).status());
    assertThrows(IllegalArgumentException.class, () -> mem.get(b("k"), -1));
  }

  @Test
  void invalidAddsAreRejected() {
    MemTable mem = new MemTable(CMP);
    assertThrows(IllegalArgumentException.class, () -> mem.add(1, ValueType.DELETE, b("k"), b("x")));
    assertThrows(IllegalArgumentException.class, () -> mem.add(-1, ValueType.PUT, b("k"), b("x")));
    assertThrows(IllegalArgumentException.class, () -> mem.add(InternalKey.MAX_SEQUENCE + 1, ValueType.PUT, b("k"), b("x")));
    assertThrows(NullPointerException.class, () -> mem.add(1, ValueType.PUT, b("k"), null));
    assertTrue(mem.isEmpty());
    assertEquals(-1, mem.largestSequence(), "a rejected add leaves no trace");
  }

  @Test
  void theTableCopiesTheCallersValue() {
    MemTable mem = new MemTable(CMP);
    byte[] key = b("k");
    byte[] value = b("value");
    mem.add(1, ValueType.PUT, key, value);
    value[0] = 'X';
    key[0] = 'X';
    assertEquals("value", s(mem.get(b("k"), 1).value()));
  }

  @Test
  void anEntryGivenAsRangesOfABufferIsCopiedOut() {
    MemTable mem = new MemTable(CMP);
    byte[] buf = b("..key..value..");
    mem.add(5, ValueType.PUT, buf, 2, 3, 7, 5);
    mem.add(6, ValueType.DELETE, buf, 2, 3, 0, 0);
    java.util.Arrays.fill(buf, (byte) 'X');
    assertEquals("value", s(mem.get(b("key"), 5).value()));
    assertTrue(mem.get(b("key"), 6).isDeleted(), "the tombstone hides it at its own sequence");
    assertEquals(List.of("key", "key"), keys(mem).stream().map(k -> s(InternalKey.userKey(k))).toList());
    assertThrows(IllegalArgumentException.class, () -> mem.add(7, ValueType.DELETE, buf, 2, 3, 7, 5));
    assertThrows(IndexOutOfBoundsException.class, () -> mem.add(7, ValueType.PUT, buf, 12, 3, 7, 5));
  }

  @Test
  void iteratorSeekLandsOnTheFirstEntryAtOrAfterTheTarget() {
    MemTable mem = new MemTable(CMP);
    for (int k = 0; k < 10; k++) {
      for (int seq = 1; seq <= 3; seq++) {
        mem.add(k * 10L + seq, ValueType.PUT, b("key" + k), b("v" + k + "." + seq));
      }
    }
    MemIterator it = mem.iterator();
    // A snapshot seek: the newest version of key4 at or below sequence 42.
    it.seek(InternalKey.seekKey(b("key4"), 42));
    assertTrue(it.valid());
    assertEquals("key4", s(InternalKey.userKey(it.key())));
    assertEquals(42, InternalKey.sequence(it.key()));
    it.seek(InternalKey.seekKey(b("key4"), 100));
    assertEquals(43, InternalKey.sequence(it.key()));
    it.seek(InternalKey.seekKey(b("key4"), 40)); // older than every version of key4
    assertEquals("key5", s(InternalKey.userKey(it.key())));
    assertEquals(53, InternalKey.sequence(it.key()));
    // An exact internal key lands on itself; a user key between two lands on the next.
    it.seek(InternalKey.encode(b("key7"), 72, ValueType.PUT));
    assertEquals("v7.2", s(it.value()));
    it.next();
    assertEquals("v7.1", s(it.value()));
    it.next();
    assertEquals("v8.3", s(it.value()));
    it.seek(InternalKey.seekKey(b("key45"), InternalKey.MAX_SEQUENCE));
    assertEquals("v5.3", s(it.value()));
    it.seek(InternalKey.seekKey(b("a"), InternalKey.MAX_SEQUENCE));
    assertEquals("v0.3", s(it.value()));
    it.seek(InternalKey.seekKey(b("key9"), 0)); // past the last entry
    assertFalse(it.valid());
    it.seek(InternalKey.seekKey(b("key9"), 91));
    int remaining = 0;
    for (; it.valid(); it.next()) {
      remaining++;
    }
    assertEquals(1, remaining);
    it.seekToFirst();
    assertEquals("v0.3", s(it.value()));
    assertEquals(30, keys(mem).size());
  }

  @Test
  void approximateBytesGrowsWithData() {
    MemTable mem = new MemTable(CMP);
    long before = mem.approximateBytes();
    mem.add(1, ValueType.PUT, b("key"), new byte[100]);
    long one = mem.approximateBytes();
    assertEquals(3 + InternalKey.TRAILER_BYTES + 100 + MemTable.ENTRY_OVERHEAD_BYTES, one - before);
    mem.add(2, ValueType.DELETE, b("key"), new byte[0]);
    assertEquals(3 + InternalKey.TRAILER_BYTES + MemTable.ENTRY_OVERHEAD_BYTES, mem.approximateBytes() - one);
    long last = mem.approximateBytes();
    for (int i = 0; i < 1000; i++) {
      mem.add(10 + i, ValueType.PUT, b("k" + i), new byte[i % 50]);
      assertTrue(mem.approximateBytes() > last);
      last = mem.approximateBytes();
    }
    assertTrue(last > 1000L * MemTable.ENTRY_OVERHEAD_BYTES);
    // Re-adding the same internal key replaces the value and re-charges only the difference.
    mem.add(1, ValueType.PUT, b("key"), new byte[40]);
    assertEquals(last - 60, mem.approximateBytes());
    assertEquals(1002, mem.entries());
    assertEquals(40, mem.get(b("key"), 1).value().length);
  }

  @Test
  void concurrentWritersAndReadersAgreeWithATreeMapModel() throws Exception {
    int writers = 4;
    int perWriter = 20_000;
    int keySpace = 500;
    MemTable mem = new MemTable(CMP);
    CyclicBarrier start = new CyclicBarrier(writers + 2);
    AtomicBoolean writing = new AtomicBoolean(true);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<List<Object[]>> logs = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int id = w;
      List<Object[]> log = new ArrayList<>();
      logs.add(log);
      threads.add(new Thread(() -> {
        Random rnd = new Random(id);
        try {
          start.await();
          for (int i = 0; i < perWriter; i++) {
            long seq = 1 + (long) i * writers + id; // distinct across writers
            byte[] key = b("user" + rnd.nextInt(keySpace));
            boolean delete = rnd.nextInt(5) == 0;
            byte[] value = delete ? new byte[0] : valueFor(key, seq);
            mem.add(seq, delete ? ValueType.DELETE : ValueType.PUT, key, value);
            log.add(new Object[] {seq, delete, key, value});
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    for (int r = 0; r < 2; r++) {
      int id = r;
      threads.add(new Thread(() -> {
        Random rnd = new Random(100 + id);
        try {
          start.await();
          do {
            // Every visible version is consistent with its key and within the snapshot.
            byte[] key = b("user" + rnd.nextInt(keySpace));
            long snapshot = rnd.nextInt(writers * perWriter + 1);
            Lookup l = mem.get(key, snapshot);
            if (!l.isAbsent() && l.sequence() > snapshot) {
              throw new AssertionError("saw sequence " + l.sequence() + " above snapshot " + snapshot);
            }
            if (l.isFound() && !Arrays.equals(l.value(), valueFor(key, l.sequence()))) {
              throw new AssertionError("wrong value for " + s(key) + "@" + l.sequence());
            }
            // Iteration stays strictly ordered while writers insert.
            MemIterator it = mem.iterator();
            it.seek(InternalKey.seekKey(key, InternalKey.MAX_SEQUENCE));
            byte[] prev = null;
            for (int n = 0; it.valid() && n < 200; it.next(), n++) {
              if (prev != null && CMP.compare(prev, it.key()) >= 0) {
                throw new AssertionError("iterator out of order");
              }
              prev = it.key();
            }
          } while (writing.get());
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    threads.forEach(Thread::start);
    for (int i = 0; i < writers; i++) {
      threads.get(i).join();
    }
    writing.set(false);
    for (int i = writers; i < threads.size(); i++) {
      threads.get(i).join();
    }
    assertTrue(failures.isEmpty(), () -> String.valueOf(failures.peek()));

    TreeMap<byte[], byte[]> model = new TreeMap<>(CMP);
    for (List<Object[]> log : logs) {
      for (Object[] op : log) {
        long seq = (Long) op[0];
        ValueType type = (Boolean) op[1] ? ValueType.DELETE : ValueType.PUT;
        model.put(InternalKey.encode((byte[]) op[2], seq, type), (byte[]) op[3]);
      }
    }
    assertEquals((long) writers * perWriter, model.size());
    assertEquals(model.size(), mem.entries());
    assertEquals(1, mem.smallestSequence());
    assertEquals((long) writers * perWriter, mem.largestSequence());
    MemIterator it = mem.iterator();
    it.seekToFirst();
    for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
      assertTrue(it.valid());
      assertArrayEquals(e.getKey(), it.key());
      assertArrayEquals(e.getValue(), it.value());
      it.next();
    }
    assertFalse(it.valid());
    long expectedBytes = 0;
    for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
      expectedBytes += e.getKey().length + e.getValue().length + MemTable.ENTRY_OVERHEAD_BYTES;
    }
    assertEquals(expectedBytes, mem.approximateBytes());
    // Point lookups at assorted snapshots agree with a per-key history of versions (sequence →
    // value, null for a tombstone), built without the internal-key order.
    Map<String, TreeMap<Long, byte[]>> history = new HashMap<>();
    for (List<Object[]> log : logs) {
      for (Object[] op : log) {
        byte[] v = (Boolean) op[1] ? null : (byte[]) op[3];
        history.computeIfAbsent(s((byte[]) op[2]), k -> new TreeMap<>()).put((Long) op[0], v);
      }
    }
    Random rnd = new Random(7);
    int found = 0;
    int deleted = 0;
    int absent = 0;
    for (int i = 0; i < 20_000; i++) {
      String key = "user" + rnd.nextInt(keySpace + 10); // a few keys never written
      long snapshot = rnd.nextInt(writers * perWriter + 2);
      TreeMap<Long, byte[]> versions = history.getOrDefault(key, new TreeMap<>());
      Map.Entry<Long, byte[]> expected = versions.floorEntry(snapshot);
      Lookup l = mem.get(b(key), snapshot);
      if (expected == null) {
        assertTrue(l.isAbsent(), key + "@" + snapshot);
        absent++;
      } else if (expected.getValue() == null) {
        assertTrue(l.isDeleted(), key + "@" + snapshot);
        assertEquals(expected.getKey(), l.sequence());
        deleted++;
      } else {
        assertTrue(l.isFound(), key + "@" + snapshot);
        assertEquals(expected.getKey(), l.sequence());
        assertArrayEquals(expected.getValue(), l.value());
        found++;
      }
    }
    assertTrue(found > 0 && deleted > 0 && absent > 0, found + "/" + deleted + "/" + absent);
  }

  private static byte[] valueFor(byte[] key, long seq) {
    return b(s(key) + "#" + seq);
  }
}
