package io.iam.core.tree.lsbm;

import io.iam.core.manifest.BufferFile;
import io.iam.core.manifest.KeyFilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.KeyComparator;
import io.iam.core.key.ValueType;
import io.iam.core.manifest.FileMeta;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The index of a file's sources answers what a comparison with every source's range answers. */
class SourceIndexTest {

  private static final KeyComparator USER = BytewiseComparator.INSTANCE;

  private static byte[] u(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static BufferFile source(long number, String lo, String hi) {
    FileMeta f = new FileMeta(number, 100, 1, 10, InternalKey.encode(u(lo), 2, ValueType.PUT),
        InternalKey.encode(u(hi), 1, ValueType.PUT), 1, 2);
    return BufferFile.of(f, number, KeyFilter.ALL);
  }

  /** The reference: every source whose range holds the key, in list order. */
  private static List<Long> scan(List<BufferFile> sources, byte[] key) {
    List<Long> out = new ArrayList<>();
    for (BufferFile b : sources) {
      if (USER.compare(b.lo(), key) <= 0 && USER.compare(b.hi(), key) >= 0) {
        out.add(b.fileNumber());
      }
    }
    return out;
  }

  private static List<Long> numbers(SourceIndex.Source[] sources) {
    List<Long> out = new ArrayList<>();
    for (SourceIndex.Source s : sources) {
      out.add(s.file().fileNumber());
    }
    return out;
  }

  /** A buffer that holds nothing: the index's own answers do not depend on it. */
  private static final CompactionBuffer EMPTY = CompactionBuffer.empty(USER, 2);

  @Test
  void aHandMadeListKeepsItsOrderAtEveryPieceOfTheKeySpace() {
    // newest data first: 7 [d, k], 5 [a, f], 6 [f, f], 9 [h, z]
    List<BufferFile> sources = List.of(source(7, "d", "k"), source(5, "a", "f"), source(6, "f", "f"), source(9, "h", "z"));
    SourceIndex index = SourceIndex.of(sources, EMPTY);
    assertEquals(List.of(), numbers(index.covering(u("0"))), "before every range");
    assertEquals(List.of(5L), numbers(index.covering(u("a"))), "a range's first key");
    assertEquals(List.of(5L), numbers(index.covering(u("c"))));
    assertEquals(List.of(7L, 5L), numbers(index.covering(u("d"))));
    assertEquals(List.of(7L, 5L), numbers(index.covering(u("e"))));
    assertEquals(List.of(7L, 5L, 6L), numbers(index.covering(u("f"))), "a one-key range, where two ranges end");
    assertEquals(List.of(7L), numbers(index.covering(u("fa"))), "the gap right after a point");
    assertEquals(List.of(7L, 9L), numbers(index.covering(u("i"))));
    assertEquals(List.of(7L, 9L), numbers(index.covering(u("k"))));
    assertEquals(List.of(9L), numbers(index.covering(u("ka"))));
    assertEquals(List.of(9L), numbers(index.covering(u("z"))), "the last range's last key");
    assertEquals(List.of(), numbers(index.covering(u("za"))), "after every range");
  }

  @Test
  void randomListsAnswerAsAComparisonWithEverySource() {
    SplittableRandom r = new SplittableRandom(17);
    int checked = 0;
    for (int round = 0; round < 300; round++) {
      List<BufferFile> sources = new ArrayList<>();
      int n = 1 + r.nextInt(14);
      for (int i = 0; i < n; i++) {
        int a = r.nextInt(60);
        int b = a + r.nextInt(20); // some one-key ranges, many shared ends
        sources.add(source(100 + i, String.format("k%03d", a), String.format("k%03d", b)));
      }
      SourceIndex index = SourceIndex.of(sources, EMPTY);
      for (int k = 0; k < 90; k++) {
        for (String key : new String[] {String.format("k%03d", k), String.format("k%03d!", k)}) { // ends and gaps
          List<Long> expected = scan(sources, u(key));
          assertEquals(expected, numbers(index.covering(u(key))), "key " + key + " in " + sources);
          checked += expected.size();
        }
      }
    }
    assertTrue(checked > 10_000, "the random lists covered keys: " + checked);
  }
}
