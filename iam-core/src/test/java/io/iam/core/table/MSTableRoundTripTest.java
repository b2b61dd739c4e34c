package io.iam.core.table;

import static io.iam.core.table.TableTestData.CMP;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.LocalFs;
import io.iam.core.key.InternalKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One sequence in a compact file: write, then read back by iteration and by seek. */
class MSTableRoundTripTest {

  @TempDir
  static Path dir;

  private static TableTestData data;
  private static Path file;
  private static SequenceHandle written;

  @BeforeAll
  static void writeLargeCompactFile() throws IOException {
    data = TableTestData.random(42, 100_000, 1, 10, 200);
    file = dir.resolve("000001.mst");
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, file, 1, 0, TableOptions.DEFAULT, CMP)) {
      assertEquals(Long.MAX_VALUE, w.freeBytes());
      written = data.writeTo(w);
      assertEquals(1, w.sequenceCount());
      assertEquals(0, w.freeBytes(), "a compact file takes no appends");
    }
  }

  @Test
  void compactFileIsDataThenMetadataThenFooter() throws IOException {
    data.assertDescribes(written, 0);
    assertEquals(0, written.dataStart());
    assertEquals(written.dataEnd(), written.metaOffset(), "metadata right after data");
    assertEquals(written.metaOffset() + written.metaLength() + Footer.SIZE, Files.size(file));
    try (MSTableReader r = open(new NoCacheForTests())) {
      assertEquals(List.of(written), r.sequences());
      assertEquals(Files.size(file), r.fileSize());
      assertTrue(r.sequence(0).hasFilter());
      assertTrue(r.sequence(0).blockCount() > 1000, "4 KiB blocks over ~10 MB of data");
    }
  }

  @Test
  void fullIterationReturnsExactlyTheInput() throws IOException {
    try (MSTableReader r = open(new NoCacheForTests())) {
      data.assertIteratesExactly(r.sequence(0));
    }
  }

  @Test
  void everyKeyIsFoundBySeekWithOneBlockRead() throws IOException {
    NoCacheForTests cache = new NoCacheForTests();
    try (MSTableReader r = open(cache)) {
      SequenceReader s = r.sequence(0);
      for (int i = 0; i < data.size(); i++) {
        long before = cache.loads();
        Entry e = s.seek(data.keys.get(i));
        assertEquals(before + 1, cache.loads(), "a point seek reads exactly one data block");
        assertArrayEquals(data.keys.get(i), e.key());
        assertArrayEquals(data.values.get(i), e.value());
        assertTrue(s.mayContain(InternalKey.userKey(data.keys.get(i))), "no Bloom false negative");
      }
    }
  }

  @Test
  void seeksBetweenKeysLandOnTheNextEntry() throws IOException {
    try (MSTableReader r = open(new NoCacheForTests())) {
      SequenceReader s = r.sequence(0);
      for (int i = 0; i < data.size(); i++) {
        byte[] key = data.keys.get(i);
        byte[] user = InternalKey.userKey(key);
        long seq = InternalKey.sequence(key);
        // Just after this entry among the versions of the same user key.
        if (seq > 0) {
          assertSeekMatchesOracle(s, InternalKey.seekKey(user, seq - 1));
        }
        // After every version of this user key: the next user key's newest version.
        byte[] after = Arrays.copyOf(user, user.length + 1);
        byte[] target = InternalKey.seekKey(after, InternalKey.MAX_SEQUENCE);
        int expected = data.lowerBound(target);
        assertTrue(expected > i);
        assertSeekMatchesOracle(s, target);
      }
      assertArrayEquals(data.keys.get(0), s.seek(InternalKey.seekKey(new byte[0], InternalKey.MAX_SEQUENCE)).key());
      byte[] beyond = new byte[32];
      Arrays.fill(beyond, (byte) 0xFF);
      assertNull(s.seek(InternalKey.seekKey(beyond, 0)));
    }
  }

  @Test
  void indexKeysAreShortSeparatorsBetweenBlocks() throws IOException {
    try (MSTableReader r = open(new NoCacheForTests())) {
      SequenceReader s = r.sequence(0);
      long indexBytes = 0;
      long lastKeyBytes = 0;
      int shortened = 0;
      Block.Iter[] blocks = new Block.Iter[s.blockCount()];
      for (int i = 0; i < s.blockCount(); i++) {
        blocks[i] = s.block(i).iterator(CMP);
      }
      for (int i = 0; i < s.blockCount(); i++) {
        byte[] last = lastKeyOf(blocks[i]);
        byte[] index = s.indexKey(i);
        assertTrue(CMP.compare(last, index) <= 0, "block " + i + ": index key below its last key");
        if (i + 1 < s.blockCount()) {
          blocks[i + 1].seekToFirst();
          assertTrue(CMP.compare(index, blocks[i + 1].key()) < 0, "block " + i + ": index key reaches the next block");
        } else {
          assertArrayEquals(last, index, "the last block is indexed by its last key");
        }
        if (index.length < last.length) {
          shortened++;
        }
        indexBytes += index.length;
        lastKeyBytes += last.length;
        // A seek to the index key itself, and to the key just above the block's last key, land on
        // the next block's first entry (or past the end).
        assertSeekMatchesOracle(s, index);
        assertSeekMatchesOracle(s, InternalKey.seekKey(InternalKey.userKey(last), 0));
      }
      // Neighbouring keys of this data often differ only in their last byte (user000012345,
      // user000012346), where no shorter key fits; about a quarter of the boundaries have room.
      assertTrue(shortened > s.blockCount() / 5, shortened + " of " + s.blockCount() + " index keys shortened");
      assertTrue(indexBytes < lastKeyBytes, "index keys " + indexBytes + " B against last keys " + lastKeyBytes + " B");
    }
  }

  private static byte[] lastKeyOf(Block.Iter it) throws IOException {
    byte[] last = null;
    for (it.seekToFirst(); it.valid(); it.next()) {
      last = it.key();
    }
    return last;
  }

  private static void assertSeekMatchesOracle(SequenceReader s, byte[] target) throws IOException {
    int expected = data.lowerBound(target);
    Entry e = s.seek(target);
    if (expected == data.size()) {
      assertNull(e);
    } else {
      assertNotNull(e);
      assertArrayEquals(data.keys.get(expected), e.key());
      assertArrayEquals(data.values.get(expected), e.value());
    }
  }

  @Test
  void iteratorSeekThenNextContinuesInOrder() throws IOException {
    Random rnd = new Random(7);
    try (MSTableReader r = open(new NoCacheForTests())) {
      TableIterator it = r.sequence(0).iterator();
      assertFalse(it.valid(), "unpositioned");
      for (int round = 0; round < 200; round++) {
        int start = rnd.nextInt(data.size());
        it.seek(data.keys.get(start));
        for (int i = start; i < Math.min(data.size(), start + 300); i++) {
          assertTrue(it.valid());
          assertArrayEquals(data.keys.get(i), it.key());
          assertArrayEquals(data.values.get(i), it.value());
          it.next();
        }
      }
      it.seek(data.keys.get(data.size() - 1));
      it.next();
      assertFalse(it.valid());
    }
  }

  @Test
  void openReadsFooterAndMetadataInTwoReads() throws IOException {
    CountingFs fs = new CountingFs(LocalFs.INSTANCE);
    try (MSTableReader r = MSTableReader.open(fs, file, 1, new NoCacheForTests(), TableOptions.DEFAULT, CMP)) {
      assertEquals(2, fs.reads.get(), "footer, then the whole metadata region");
      r.sequence(0).seek(data.keys.get(12345));
      assertEquals(3, fs.reads.get(), "then one read per data block");
    }
  }

  @Test
  void cachedBlocksServeRepeatedReads() throws IOException {
    MapCacheForTests cache = new MapCacheForTests();
    try (MSTableReader r = open(cache)) {
      SequenceReader s = r.sequence(0);
      for (int i = 0; i < data.size(); i += 97) {
        s.seek(data.keys.get(i));
      }
      long misses = cache.misses();
      for (int i = 0; i < data.size(); i += 97) {
        assertArrayEquals(data.values.get(i), s.seek(data.keys.get(i)).value());
      }
      assertEquals(misses, cache.misses(), "second pass served from the cache");
      assertTrue(cache.residentBlocks(1) > 0);
    }
  }

  @Test
  void concurrentReadersSeeTheRightValues() throws Exception {
    MapCacheForTests cache = new MapCacheForTests();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (MSTableReader r = open(cache)) {
      List<Future<Integer>> results = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        results.add(pool.submit(() -> {
          Random rnd = new Random(seed);
          SequenceReader s = r.sequence(0);
          int checked = 0;
          for (int j = 0; j < 5_000; j++) {
            int i = rnd.nextInt(data.size());
            Entry e = s.seek(data.keys.get(i));
            assertArrayEquals(data.values.get(i), e.value());
            checked++;
          }
          return checked;
        }));
      }
      for (Future<Integer> f : results) {
        assertEquals(5_000, f.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Small blocks and unusual restart intervals exercise block boundaries and restart search. */
  @ParameterizedTest
  @CsvSource({"256, 1, 0", "256, 3, 10", "1024, 16, 14", "4096, 128, 5"})
  void roundTripWithOtherBlockLayouts(int blockSize, int restartInterval, int bloomBits) throws IOException {
    TableTestData d = TableTestData.random(blockSize * 31L + restartInterval, 5_000, 100, 2, 300);
    TableOptions opts = new TableOptions(blockSize, bloomBits, restartInterval);
    Path f = dir.resolve("layout-" + blockSize + "-" + restartInterval + "-" + bloomBits + ".mst");
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, f, 9, 0, opts, CMP)) {
      d.assertDescribes(d.writeTo(w), 0);
    }
    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 9, new NoCacheForTests(), opts, CMP)) {
      SequenceReader s = r.sequence(0);
      assertEquals(bloomBits > 0, s.hasFilter());
      d.assertIteratesExactly(s);
      d.assertSeeksFind(s, 1);
      for (int i = 0; i < d.size(); i++) {
        byte[] user = InternalKey.userKey(d.keys.get(i));
        byte[] target = InternalKey.seekKey(Arrays.copyOf(user, user.length + 1), InternalKey.MAX_SEQUENCE);
        int expected = d.lowerBound(target);
        Entry e = s.seek(target);
        if (expected == d.size()) {
          assertNull(e);
        } else {
          assertArrayEquals(d.keys.get(expected), e.key());
        }
        assertTrue(s.mayContain(user));
      }
    }
  }

  @Test
  void scanningEveryBlockVisitsEveryEntryOnce() throws IOException {
    try (MSTableReader r = open(new NoCacheForTests())) {
      SequenceReader seq = r.sequence(0);
      int entries = 0;
      for (int i = 0; i < seq.blockCount(); i++) {
        int inBlock = seq.scanBlock(i);
        assertTrue(inBlock > 0, "block " + i + " is empty");
        entries += inBlock;
      }
      assertEquals(data.size(), entries);
    }
  }

  private static MSTableReader open(io.iam.core.cache.BlockCache cache) throws IOException {
    return MSTableReader.open(LocalFs.INSTANCE, file, 1, cache, TableOptions.DEFAULT, CMP);
  }
}
