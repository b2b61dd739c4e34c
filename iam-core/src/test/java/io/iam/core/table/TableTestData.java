package io.iam.core.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.ValueType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/** Random sorted entries and helpers to write and check them. */
final class TableTestData {

  static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);

  final List<byte[]> keys;
  final List<byte[]> values;

  private TableTestData(List<byte[]> keys, List<byte[]> values) {
    this.keys = keys;
    this.values = values;
  }

  int size() {
    return keys.size();
  }

  /** The given entries, which must be distinct internal keys in order. */
  static TableTestData of(List<byte[]> keys, List<byte[]> values) {
    return new TableTestData(List.copyOf(keys), List.copyOf(values));
  }

  /**
   * {@code n} distinct internal keys in order, with values. User keys are drawn from a space of
   * about {@code 2n/3} names (so many keys have several versions), some with random binary
   * suffixes; sequence numbers lie in {@code [seqBase, seqBase + 2^30)}. Values: 10% empty,
   * {@code bigPerMille}‰ of 10 KiB, the rest 1 to {@code maxValue} bytes.
   */
  static TableTestData random(long seed, int n, long seqBase, int bigPerMille, int maxValue) {
    Random r = new Random(seed);
    TreeMap<byte[], byte[]> m = new TreeMap<>(CMP);
    int space = Math.max(1, 2 * n / 3);
    while (m.size() < n) {
      byte[] user = userKey(r, space);
      long seq = seqBase + r.nextInt(1 << 30);
      byte[] key = InternalKey.encode(user, seq, r.nextInt(10) == 0 ? ValueType.DELETE : ValueType.PUT);
      m.put(key, value(r, bigPerMille, maxValue));
    }
    List<byte[]> ks = new ArrayList<>(n);
    List<byte[]> vs = new ArrayList<>(n);
    for (Map.Entry<byte[], byte[]> e : m.entrySet()) {
      ks.add(e.getKey());
      vs.add(e.getValue());
    }
    return new TableTestData(ks, vs);
  }

  static byte[] userKey(Random r, int space) {
    byte[] base = String.format("user%09d", r.nextInt(space)).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    if (r.nextInt(10) < 3) {
      byte[] out = new byte[base.length + 1 + r.nextInt(6)];
      System.arraycopy(base, 0, out, 0, base.length);
      for (int i = base.length; i < out.length; i++) {
        out[i] = (byte) r.nextInt(256);
      }
      return out;
    }
    return base;
  }

  static byte[] value(Random r, int bigPerMille, int maxValue) {
    int p = r.nextInt(1000);
    byte[] v;
    if (p < 100) {
      v = new byte[0];
    } else if (p < 100 + bigPerMille) {
      v = new byte[10 * 1024];
    } else {
      v = new byte[1 + r.nextInt(maxValue)];
    }
    r.nextBytes(v);
    return v;
  }

  /** Index of the first key at least {@code target}, by binary search over the input (the oracle). */
  int lowerBound(byte[] target) {
    int i = Collections.binarySearch(keys, target, CMP);
    return i >= 0 ? i : -i - 1;
  }

  long minSeq() {
    return keys.stream().mapToLong(InternalKey::sequence).min().orElseThrow();
  }

  long maxSeq() {
    return keys.stream().mapToLong(InternalKey::sequence).max().orElseThrow();
  }

  long rawBytes() {
    long s = 0;
    for (int i = 0; i < size(); i++) {
      s += keys.get(i).length + values.get(i).length;
    }
    return s;
  }

  /** Adds every entry to a new sequence of {@code w} and finishes it. */
  SequenceHandle writeTo(MSTableWriter w) throws IOException {
    SequenceWriter s = w.beginSequence();
    for (int i = 0; i < size(); i++) {
      s.add(keys.get(i), values.get(i));
    }
    return s.finish();
  }

  /** Asserts the sequence iterates to exactly these entries, in order. */
  void assertIteratesExactly(SequenceReader seq) throws IOException {
    TableIterator it = seq.iterator();
    it.seekToFirst();
    for (int i = 0; i < size(); i++) {
      if (!it.valid()) {
        throw new AssertionError("iteration ended after " + i + " of " + size() + " entries");
      }
      assertArrayEquals(keys.get(i), it.key(), "key " + i);
      assertArrayEquals(values.get(i), it.value(), "value " + i);
      it.next();
    }
    assertFalse(it.valid(), "iteration returned more entries than written");
  }

  /** Asserts that seeking every {@code stride}-th key finds exactly it. */
  void assertSeeksFind(SequenceReader seq, int stride) throws IOException {
    for (int i = 0; i < size(); i += stride) {
      Entry e = seq.seek(keys.get(i));
      assertArrayEquals(keys.get(i), e.key(), "seek key " + i);
      assertArrayEquals(values.get(i), e.value(), "seek value " + i);
    }
  }

  /** Asserts a handle describes exactly this data. */
  void assertDescribes(SequenceHandle h, int index) {
    assertEquals(index, h.index());
    assertEquals(size(), h.entries());
    assertEquals(rawBytes(), h.dataBytes());
    assertArrayEquals(keys.get(0), h.smallest());
    assertArrayEquals(keys.get(size() - 1), h.largest());
    assertEquals(minSeq(), h.smallestSequence());
    assertEquals(maxSeq(), h.largestSequence());
  }
}
