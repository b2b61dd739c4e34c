package io.iam.core.iter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.ValueType;
import io.iam.core.memtable.MemTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The merge of several sources against a model: one memtable holding every source's entries,
 * whose own order is the truth. Sources of random sizes (empty ones too), overlapping key ranges,
 * several versions of a key spread over sources, full passes and seeks.
 */
class MergingIteratorTest {

  private static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);

  @Test
  void mergesLikeOneSortedSourceHoldingEverything() throws IOException {
    Random random = new Random(20261122);
    for (int round = 0; round < 300; round++) {
      int sources = random.nextInt(10);
      List<MemTable> tables = new ArrayList<>();
      for (int i = 0; i < sources; i++) {
        tables.add(new MemTable(CMP));
      }
      MemTable all = new MemTable(CMP);
      int entries = random.nextInt(400);
      int keySpace = 1 + random.nextInt(200);
      for (long seq = 1; seq <= entries && sources > 0; seq++) {
        byte[] key = key(random.nextInt(keySpace));
        byte[] value = ("v" + seq).getBytes(StandardCharsets.US_ASCII);
        tables.get(random.nextInt(sources)).add(seq, ValueType.PUT, key, value);
        all.add(seq, ValueType.PUT, key, value);
      }
      try (MergingIterator merged = merge(tables)) {
        InternalIterator model = all.iterator();
        merged.seekToFirst();
        model.seekToFirst();
        assertSame(model, merged, "round " + round + ", full pass");
        for (int s = 0; s < 5; s++) {
          byte[] target = InternalKey.seekKey(key(random.nextInt(keySpace + 1)), 1 + random.nextInt(entries + 1));
          merged.seek(target);
          model.seek(target);
          assertSame(model, merged, "round " + round + ", seek " + s);
        }
      }
    }
  }

  @Test
  void aSourceThatRunsOutLeavesTheOthersInOrder() throws IOException {
    MemTable a = new MemTable(CMP);
    MemTable b = new MemTable(CMP);
    MemTable c = new MemTable(CMP);
    a.add(1, ValueType.PUT, key(1), new byte[] {1});
    b.add(2, ValueType.PUT, key(2), new byte[] {2});
    b.add(3, ValueType.PUT, key(5), new byte[] {3});
    c.add(4, ValueType.PUT, key(3), new byte[] {4});
    c.add(5, ValueType.PUT, key(4), new byte[] {5});
    try (MergingIterator merged = merge(List.of(a, b, c))) {
      List<String> order = new ArrayList<>();
      for (merged.seekToFirst(); merged.valid(); merged.next()) {
        order.add(new String(InternalKey.userKey(merged.key()), StandardCharsets.US_ASCII));
      }
      assertEquals(List.of("k00001", "k00002", "k00003", "k00004", "k00005"), order);
    }
  }

  private static MergingIterator merge(List<MemTable> tables) {
    List<InternalIterator> its = new ArrayList<>();
    for (MemTable t : tables) {
      its.add(t.iterator());
    }
    return new MergingIterator(CMP, its);
  }

  private static void assertSame(InternalIterator model, InternalIterator merged, String what) throws IOException {
    int n = 0;
    while (model.valid()) {
      assertEquals(true, merged.valid(), what + ": merge ended early at entry " + n);
      assertArrayEquals(model.key(), merged.key(), what + ": key of entry " + n);
      assertArrayEquals(model.value(), merged.value(), what + ": value of entry " + n);
      model.next();
      merged.next();
      n++;
    }
    assertFalse(merged.valid(), what + ": merge has entries past the model's " + n);
  }

  private static byte[] key(int i) {
    return String.format("k%05d", i).getBytes(StandardCharsets.US_ASCII);
  }
}
