package io.iam.core.table;

import static io.iam.core.table.TableTestData.CMP;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.LocalFs;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sequence read without a block cache (a compaction's input) reads consecutive blocks in windows
 * of {@link SequenceReader#READAHEAD_BYTES}: the same entries as a cached read, far fewer reads,
 * and every block still verified.
 */
class MSTableReadaheadTest {

  @TempDir
  static Path dir;

  private static TableTestData data;
  private static Path table;

  @BeforeAll
  static void writeTable() throws IOException {
    data = TableTestData.random(11, 20_000, 1, 0, 200);
    table = dir.resolve("readahead.mst");
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, table, 9, 0, TableOptions.DEFAULT, CMP)) {
      data.writeTo(w);
    }
  }

  /** Iterates the sequence from its start and checks every entry against the data written. */
  private static void assertIteratesEveryEntry(SequenceReader s) throws IOException {
    TableIterator it = s.iterator();
    int i = 0;
    for (it.seekToFirst(); it.valid(); it.next()) {
      assertArrayEquals(data.keys.get(i), it.key());
      // The view into the block (read-ahead blocks sit at offsets of a shared window), then the copy.
      assertArrayEquals(data.values.get(i), it.valueSlice().toArray());
      assertArrayEquals(data.values.get(i), it.value());
      i++;
    }
    assertEquals(data.size(), i);
  }

  private static MSTableReader uncached(CountingFs fs, Path f) throws IOException {
    return MSTableReader.open(fs, f, 9, null, TableOptions.DEFAULT, CMP);
  }

  @Test
  void iteratesEveryEntryWithAReadPerWindowNotPerBlock() throws IOException {
    CountingFs fs = new CountingFs(LocalFs.INSTANCE);
    try (MSTableReader r = uncached(fs, table)) {
      SequenceReader s = r.sequence(0);
      long opened = fs.reads.get();
      assertIteratesEveryEntry(s);
      long reads = fs.reads.get() - opened;
      long dataBytes = Files.size(table);
      assertTrue(s.blockCount() > 200, "enough blocks to tell: " + s.blockCount());
      int rampUp = Integer.numberOfTrailingZeros(SequenceReader.READAHEAD_BYTES / SequenceReader.READAHEAD_INITIAL_BYTES);
      assertTrue(reads <= dataBytes / SequenceReader.READAHEAD_BYTES + rampUp + 2,
          reads + " reads for " + s.blockCount() + " blocks of " + dataBytes + " bytes");
    }
  }

  @Test
  void aShortRangeAfterASeekReadsLittleBeyondIt() throws IOException {
    CountingFs fs = new CountingFs(LocalFs.INSTANCE);
    try (MSTableReader r = uncached(fs, table)) {
      TableIterator it = r.sequence(0).iterator();
      long before = fs.bytesRead.get();
      int from = data.size() / 2;
      it.seek(data.keys.get(from));
      for (int i = from; i < from + 10; i++, it.next()) { // a few entries: a child's share of a node
        assertArrayEquals(data.keys.get(i), it.key());
        assertArrayEquals(data.values.get(i), it.value());
      }
      long read = fs.bytesRead.get() - before;
      assertTrue(read <= 2 * SequenceReader.READAHEAD_INITIAL_BYTES,
          read + " bytes read for 10 entries, against windows of " + SequenceReader.READAHEAD_BYTES);

      before = fs.bytesRead.get();
      it.seek(data.keys.get(data.size() / 10)); // a jump back starts small again
      assertTrue(it.valid());
      assertTrue(fs.bytesRead.get() - before <= SequenceReader.READAHEAD_INITIAL_BYTES + 8192);
    }
  }

  @Test
  void aSeekReadsFromTheSoughtBlockOn() throws IOException {
    try (MSTableReader r = uncached(new CountingFs(LocalFs.INSTANCE), table)) {
      TableIterator it = r.sequence(0).iterator();
      int from = data.size() * 2 / 3;
      it.seek(data.keys.get(from));
      for (int i = from; i < data.size(); i++, it.next()) {
        assertTrue(it.valid());
        assertArrayEquals(data.keys.get(i), it.key());
      }
      assertTrue(!it.valid());
    }
  }

  @Test
  void aDamagedBlockInsideAWindowStillFailsWithItsOwnOffset() throws IOException {
    Path f = dir.resolve("damaged.mst");
    Files.copy(table, f);
    long block5;
    try (MSTableReader r = uncached(new CountingFs(LocalFs.INSTANCE), f)) {
      block5 = r.sequence(0).blockOffset(5);
    }
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      raf.seek(block5 + 7);
      int b = raf.read();
      raf.seek(block5 + 7);
      raf.write(b ^ 0x5A);
    }
    try (MSTableReader r = uncached(new CountingFs(LocalFs.INSTANCE), f)) {
      TableIterator it = r.sequence(0).iterator();
      int returned = 0;
      TableCorruptionException e = null;
      try {
        for (it.seekToFirst(); it.valid(); it.next()) {
          assertArrayEquals(data.keys.get(returned), it.key());
          assertArrayEquals(data.values.get(returned), it.value());
          returned++;
        }
      } catch (TableCorruptionException thrown) {
        e = thrown;
      }
      assertNotNull(e, "iteration must not run through the damaged block");
      assertEquals(block5, e.offset());
      assertTrue(returned > 0, "the blocks before it are served");
    }
  }
  /**
   * A look-only reader ({@link MSTableReader#openLookOnly}) takes blocks resident in the cache from
   * it, reads the others from the file, and leaves the cache as it was: no block added, no hit or
   * miss counted. Here the cache holds every other block: the reads cover only the rest.
   */
  @Test
  void aLookOnlyReadTakesResidentBlocksAndLeavesTheCacheAsItWas() throws IOException {
    io.iam.core.cache.PriorityBlockCache cache = new io.iam.core.cache.PriorityBlockCache(64L << 20, 0);
    int blocks;
    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, table, 9, cache, TableOptions.DEFAULT, CMP)) {
      SequenceReader s = r.sequence(0);
      blocks = s.blockCount();
      for (int b = 0; b < blocks; b += 2) {
        s.block(b); // cached
      }
    }
    long resident = cache.residentBlocks(9);
    long hits = cache.hits();
    long misses = cache.misses();
    assertEquals((blocks + 1) / 2, resident);
    CountingFs fs = new CountingFs(LocalFs.INSTANCE);
    try (MSTableReader r = MSTableReader.openLookOnly(fs, table, 9, cache, TableOptions.DEFAULT, CMP, -1)) {
      long opened = fs.bytesRead.get();
      assertIteratesEveryEntry(r.sequence(0));
      long read = fs.bytesRead.get() - opened;
      long dataBytes = r.sequence(0).handle().dataEnd() - r.sequence(0).handle().dataStart();
      assertTrue(read < dataBytes * 6 / 10, "read " + read + " of " + dataBytes + " data bytes, half the blocks cached");
      assertTrue(read > dataBytes * 4 / 10, "the uncached half is read: " + read + " of " + dataBytes);
    }
    assertEquals(resident, cache.residentBlocks(9), "nothing added to the cache");
    assertEquals(hits, cache.hits());
    assertEquals(misses, cache.misses());
  }
}
