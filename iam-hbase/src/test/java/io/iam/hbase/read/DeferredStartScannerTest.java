package io.iam.hbase.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.Reference;
import org.apache.hadoop.hbase.io.hfile.BloomFilterMetrics;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.KeyValueHeap;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link DeferredStartScanner} against HBase's own scanner, over the same HFiles: a heap of each
 * returns the same cells for random seeks, lazy seeks, reseeks and reads, over files laid out as
 * a tree's levels (disjoint ranges) and as a node's sequences (overlapping ranges, several
 * versions of a row); and every file that begins after the last row read is never seeked.
 */
class DeferredStartScannerTest {

  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");
  private static final int ROWS = 20_000;
  private static final Configuration CONF = HBaseConfiguration.create();
  private static final CacheConfig CACHE = new CacheConfig(CONF);
  private static java.nio.file.Path dir;
  private static final List<StoreFileInfo> FILES = new ArrayList<>();

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("r%06d", i));
  }

  /**
   * 120 files: 3 "levels" of disjoint ranges (10, 30 and 60 files, each covering its share of the
   * rows, every k-th row), plus 20 overlapping files over random ranges, as a node's sequences.
   */
  @BeforeAll
  static void writeFiles() throws IOException {
    dir = Files.createTempDirectory("deferred-start");
    FileSystem fs = FileSystem.getLocal(CONF);
    Random random = new Random(7);
    long timestamp = 1;
    for (int parts : new int[] {10, 30, 60}) {
      for (int p = 0; p < parts; p++) {
        int lo = p * ROWS / parts;
        int hi = (p + 1) * ROWS / parts - 1;
        FILES.add(write(fs, lo, hi, 1 + random.nextInt(3), timestamp++));
      }
    }
    for (int s = 0; s < 20; s++) {
      int lo = random.nextInt(ROWS);
      int hi = Math.min(ROWS - 1, lo + random.nextInt(ROWS / 4));
      FILES.add(write(fs, lo, hi, 1 + random.nextInt(5), timestamp++));
    }
  }

  private static StoreFileInfo write(FileSystem fs, int lo, int hi, int every, long timestamp) throws IOException {
    Path path = new Path(dir.resolve("f" + FILES.size()).toString());
    StoreFileWriter writer = new StoreFileWriter.Builder(CONF, CACHE, fs).withFilePath(path)
        .withFileContext(new HFileContextBuilder().withBlockSize(4096).build()).build();
    for (int r = lo; r <= hi; r += every) {
      writer.append(new KeyValue(row(r), FAMILY, QUALIFIER, timestamp, Bytes.toBytes(timestamp)));
    }
    writer.appendMetadata(timestamp, false);
    writer.close();
    return new StoreFileInfo(CONF, fs, fs.getFileStatus(path), (Reference) null);
  }

  @AfterAll
  static void removeFiles() throws IOException {
    FileSystem.getLocal(CONF).delete(new Path(dir.toString()), true);
  }

  private static List<HStoreFile> open(Function<StoreFileInfo, HStoreFile> kind) throws IOException {
    List<HStoreFile> files = new ArrayList<>();
    for (StoreFileInfo info : FILES) {
      HStoreFile file = kind.apply(new StoreFileInfo(CONF, FileSystem.getLocal(CONF),
          FileSystem.getLocal(CONF).getFileStatus(info.getPath()), (Reference) null));
      file.initReader();
      files.add(file);
    }
    return files;
  }

  private static List<StoreFileScanner> scanners(List<HStoreFile> files) {
    List<StoreFileScanner> scanners = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      scanners.add(files.get(i).getPreadScanner(true, Long.MAX_VALUE, i, false));
    }
    return scanners;
  }

  /** What one scan returned, and the cell its heap showed next (null at the end). */
  private record Scanned(List<Cell> cells, Cell next) {}

  private static int rowNumber(Cell cell) {
    return Integer.parseInt(Bytes.toString(CellUtil.cloneRow(cell)).substring(1));
  }

  /** One scan: a seek (lazy or not), then reads with a reseek (lazy or not) now and then. */
  private static Scanned scan(List<StoreFileScanner> scanners, long seed) throws IOException {
    Random random = new Random(seed);
    Cell start = PrivateCellUtil.createFirstOnRow(row(random.nextInt(ROWS)));
    boolean lazy = random.nextBoolean();
    for (StoreFileScanner scanner : scanners) {
      if (lazy) {
        scanner.requestSeek(start, false, true);
      } else {
        scanner.seek(start);
      }
    }
    KeyValueHeap heap = new KeyValueHeap(scanners, CellComparator.getInstance());
    List<Cell> cells = new ArrayList<>();
    int reads = 1 + random.nextInt(300);
    for (int i = 0; i < reads && heap.peek() != null; i++) {
      if (random.nextInt(20) == 0) {
        int from = rowNumber(heap.peek());
        Cell ahead = PrivateCellUtil.createFirstOnRow(row(Math.min(ROWS - 1, from + random.nextInt(500))));
        if (random.nextBoolean()) {
          heap.reseek(ahead);
        } else {
          heap.requestSeek(ahead, true, true);
        }
        if (heap.peek() == null) {
          break;
        }
      }
      cells.add(KeyValueUtil.copyToNewKeyValue(heap.next()));
    }
    Cell next = heap.peek() == null ? null : KeyValueUtil.copyToNewKeyValue(heap.peek());
    heap.close();
    return new Scanned(cells, next);
  }

  @Test
  void returnsWhatHBasesScannerReturnsAndNeverSeeksFilesPastTheRowsItReached() throws IOException {
    List<HStoreFile> plain = open(info -> new HStoreFile(info, BloomType.NONE, CACHE));
    List<HStoreFile> deferred = open(info -> new DeferredStartStoreFile(info, BloomType.NONE, CACHE, new BloomFilterMetrics()));
    CellComparator comparator = CellComparator.getInstance();
    int untouched = 0;
    for (long seed = 0; seed < 400; seed++) {
      Scanned expected = scan(scanners(plain), seed);
      List<StoreFileScanner> scanners = scanners(deferred);
      Scanned actual = scan(new ArrayList<>(scanners), seed);
      assertEquals(expected.cells().size(), actual.cells().size(), "cells read, seed " + seed);
      for (int i = 0; i < expected.cells().size(); i++) {
        Cell want = expected.cells().get(i);
        Cell got = actual.cells().get(i);
        assertEquals(0, comparator.compare(want, got), "cell " + i + " of seed " + seed + ": " + want + " against " + got);
        assertTrue(CellUtil.matchingValue(want, got), "value of cell " + i + ", seed " + seed);
      }
      assertEquals(expected.next() == null, actual.next() == null, "end of scan, seed " + seed);
      if (actual.next() == null) {
        continue;
      }
      assertEquals(0, comparator.compare(expected.next(), actual.next()), "next cell, seed " + seed);
      for (int f = 0; f < scanners.size(); f++) {
        Cell first = deferred.get(f).getReader().getFirstKey().orElseThrow();
        if (comparator.compareRows(first, actual.next()) <= 0) {
          continue;
        }
        assertTrue(!((DeferredStartScanner) scanners.get(f)).positioned(), "seed " + seed + ": file " + f
            + " begins at " + first + ", after the row the scan reached, " + actual.next() + ", and was sought");
        untouched++;
      }
    }
    assertTrue(untouched > 4_000, "files never sought in 400 scans: " + untouched);
  }
}
