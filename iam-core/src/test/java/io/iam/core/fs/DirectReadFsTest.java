package io.iam.core.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.iam.core.engine.IamStore;
import io.iam.core.engine.StoreIterator;
import io.iam.core.engine.StoreOptions;
import io.iam.core.key.BytewiseComparator;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads with O_DIRECT return exactly the bytes a buffered read returns, at any offset and length. */
class DirectReadFsTest {

  private static final Fs DIRECT = new DirectReadFs(LocalFs.INSTANCE, p -> p.toString().endsWith(".mst"));

  @Test
  void unalignedReadsReturnTheFilesBytesAndReadsPastTheEndFail(@TempDir Path dir) throws IOException {
    byte[] content = new byte[100_003]; // not a multiple of any block size
    new SplittableRandom(3).nextBytes(content);
    Path f = dir.resolve("000001.mst");
    try (FsFile w = LocalFs.INSTANCE.open(f, Fs.Mode.CREATE_NEW)) {
      w.write(0, ByteBuffer.wrap(content));
      w.sync();
    }
    SplittableRandom r = new SplittableRandom(5);
    try (FsFile file = DIRECT.open(f, Fs.Mode.READ)) {
      for (int i = 0; i < 2_000; i++) {
        int pos = r.nextInt(content.length);
        int len = r.nextInt(Math.min(70_000, content.length - pos) + 1);
        byte[] got = new byte[len];
        file.readFully(pos, ByteBuffer.wrap(got));
        assertArrayEquals(Arrays.copyOfRange(content, pos, pos + len), got, "pos " + pos + " len " + len);
      }
      byte[] tail = new byte[3];
      file.readFully(content.length - 3, ByteBuffer.wrap(tail));
      assertArrayEquals(Arrays.copyOfRange(content, content.length - 3, content.length), tail);
      assertThrows(EOFException.class, () -> file.readFully(content.length - 2, ByteBuffer.allocate(3)));
    }
  }

  @Test
  void aDirectReadSeesBytesJustWrittenThroughThePageCache(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("000002.mst");
    try (FsFile file = DIRECT.open(f, Fs.Mode.CREATE_NEW)) {
      byte[] first = "first version of the block".getBytes(StandardCharsets.US_ASCII);
      file.write(10, ByteBuffer.wrap(first));
      byte[] got = new byte[first.length];
      file.readFully(10, ByteBuffer.wrap(got));
      assertArrayEquals(first, got);
      byte[] second = "SECOND".getBytes(StandardCharsets.US_ASCII);
      file.write(10, ByteBuffer.wrap(second)); // no sync in between
      file.readFully(10, ByteBuffer.wrap(got));
      assertEquals("SECONDversion of the block", new String(got, StandardCharsets.US_ASCII));
    }
  }

  @Test
  void aStoreWithDirectTableReadsKeepsAndReadsBackEveryRecord(@TempDir Path dir) throws IOException {
    var options = StoreOptions.parse(Map.of("tree", "iam", "table-reads", "direct", "memtable-size", "64KiB",
        "fanout", "4", "block-cache-size", "64KiB"));
    TreeMap<String, byte[]> model = new TreeMap<>();
    SplittableRandom r = new SplittableRandom(11);
    try (IamStore store = IamStore.open(LocalFs.INSTANCE, dir, options, BytewiseComparator.INSTANCE)) {
      for (int i = 0; i < 5_000; i++) {
        String k = String.format("key%06d", r.nextInt(3_000));
        byte[] v = new byte[100 + r.nextInt(200)];
        r.nextBytes(v);
        store.put(k.getBytes(StandardCharsets.US_ASCII), v);
        model.put(k, v);
      }
      store.flushAndSettle();
    }
    try (IamStore store = IamStore.open(LocalFs.INSTANCE, dir, options, BytewiseComparator.INSTANCE)) {
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        byte[] got = store.get(e.getKey().getBytes(StandardCharsets.US_ASCII));
        assertNotNull(got, e.getKey());
        assertArrayEquals(e.getValue(), got, e.getKey());
      }
      int n = 0;
      try (StoreIterator it = store.iterator()) {
        for (it.seekToFirst(); it.valid(); it.next()) {
          n++;
        }
      }
      assertEquals(model.size(), n);
    }
  }
}
