package io.iam.core.engine.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.iter.InternalIterator;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.ValueType;
import io.iam.core.memtable.MemTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A node job's records held in memory: {@link NodeTree.Source#read} keeps exactly what it read,
 * in order, with several versions of a key, unless they exceed the limit; the run's iterators seek
 * and step as a table's do.
 */
class EntryRunTest {

  private static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A memtable of 300 keys, a third of them with a second version, and some deletions. */
  private static MemTable table() {
    MemTable m = new MemTable(CMP);
    SplittableRandom r = new SplittableRandom(4);
    long seq = 1;
    for (int i = 0; i < 300; i++) {
      m.add(seq++, ValueType.PUT, b(String.format("k%04d", i * 3)), b("v" + r.nextInt(1000)));
    }
    for (int i = 0; i < 300; i += 3) {
      boolean delete = i % 2 == 0;
      m.add(seq++, delete ? ValueType.DELETE : ValueType.PUT, b(String.format("k%04d", i * 3)), delete ? new byte[0] : b("w" + i));
    }
    return m;
  }

  private static List<byte[][]> entries(InternalIterator it) throws Exception {
    List<byte[][]> out = new ArrayList<>();
    for (it.seekToFirst(); it.valid(); it.next()) {
      out.add(new byte[][] {it.key(), it.value()});
    }
    return out;
  }

  @Test
  void aSourceKeepsWhatItReadAndSeeksLikeTheOriginal() throws Exception {
    MemTable m = table();
    NodeTree.Source plain = NodeTree.Source.of(m.iterator(), CMP.userComparator());
    NodeTree.Source kept = NodeTree.Source.read(m.iterator(), CMP.userComparator(), CMP, Long.MAX_VALUE);
    assertNull(plain.entries(), "a summary alone holds no records");
    assertNotNull(kept.entries());
    assertEquals(plain.keys().size(), kept.keys().size());
    assertArrayEquals(plain.cumulativeBytes(), kept.cumulativeBytes());
    List<byte[][]> expected = entries(m.iterator());
    List<byte[][]> got = entries(kept.entries().iterator());
    assertEquals(400, expected.size(), "300 keys and 100 second versions");
    assertEquals(expected.size(), got.size());
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i)[0], got.get(i)[0], "key " + i);
      assertArrayEquals(expected.get(i)[1], got.get(i)[1], "value " + i);
    }
    InternalIterator run = kept.entries().iterator();
    for (byte[][] e : expected) { // a seek to an entry's own internal key lands on it
      run.seek(e[0]);
      assertArrayEquals(e[0], run.key());
    }
    // seeks land where the memtable's do: on a key, between keys, between a key's versions, past the end
    InternalIterator mem = m.iterator();
    for (int k = -1; k <= 900; k++) {
      for (long seq : new long[] {Long.MAX_VALUE >>> 8, 350, 0}) {
        byte[] target = InternalKey.seekKey(b(String.format("k%04d", k)), seq);
        run.seek(target);
        mem.seek(target);
        assertEquals(mem.valid(), run.valid(), "seek to " + k + "@" + seq);
        if (mem.valid()) {
          assertArrayEquals(mem.key(), run.key(), "seek to " + k + "@" + seq);
          run.next();
          mem.next();
          assertEquals(mem.valid(), run.valid());
        }
      }
    }
  }

  @Test
  void recordsOverTheLimitAreNotKept() throws Exception {
    MemTable m = table();
    long all = NodeTree.Source.of(m.iterator(), CMP.userComparator()).bytes();
    assertNotNull(NodeTree.Source.read(m.iterator(), CMP.userComparator(), CMP, all).entries(), "exactly the limit fits");
    NodeTree.Source over = NodeTree.Source.read(m.iterator(), CMP.userComparator(), CMP, all - 1);
    assertNull(over.entries(), "one byte over: the children read the files themselves");
    assertEquals(all, over.bytes(), "the summary is whole either way");
  }

  @Test
  void anIteratorOffAnEntryRefusesToAnswer() throws Exception {
    InternalIterator it = NodeTree.Source.read(table().iterator(), CMP.userComparator(), CMP, Long.MAX_VALUE)
        .entries().iterator();
    assertFalse(it.valid(), "positioned nowhere until a seek");
    assertThrows(NoSuchElementException.class, it::key);
    it.seek(InternalKey.seekKey(b("zzz"), 0));
    assertFalse(it.valid());
    assertThrows(NoSuchElementException.class, it::next);
    it.seekToFirst();
    assertTrue(it.valid());
    assertArrayEquals(b("k0000"), InternalKey.userKey(it.key()));
  }
}
