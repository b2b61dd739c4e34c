package io.iam.core.table;

import static io.iam.core.table.TableTestData.CMP;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import io.iam.core.fs.LocalFs;
import io.iam.core.key.InternalKey;
import io.iam.core.key.ValueType;
import io.iam.core.util.Coding;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two block-index forms of format version 2, and files of version 1.
 *
 * <p>A sequence in which no user key has versions on both sides of a block boundary is indexed
 * under bare user keys with only each block's length ({@link TableFormat#TYPE_USER_INDEX}); any
 * other keeps the internal-key index with full block handles ({@link TableFormat#TYPE_INDEX}).
 * {@code format/mstable-v1.mst} was written by the code of commit 3b84ef1 (format version 1): a
 * 64 KiB capacity file holding the entries {@link #v1Sequence(int)} describes.
 */
class MSTableIndexFormatTest {

  @TempDir
  Path dir;

  @Test
  void distinctUserKeysAreIndexedByUserKeyAndBlockLengthOnly() throws IOException {
    TableTestData data = distinctKeys(new Random(7), 20_000, 0);
    Path file = write(data);
    TableMetadata.Sequence meta = loadOnly(file);
    assertEquals(TableFormat.TYPE_USER_INDEX, indexType(file, meta));
    assertTrue(meta.lastKeys().length > 300, meta.lastKeys().length + " blocks");

    // On disk each entry is the bare user key and one varint, the block's payload length.
    byte[] raw = readIndexPayload(file, meta);
    Block.Iter it = Block.parse(raw, raw.length, file, meta.pointer().offset()).iterator(CMP);
    int i = 0;
    for (it.seekToFirst(); it.valid(); it.next(), i++) {
      byte[] user = Arrays.copyOf(it.keyArray(), it.keyLength());
      assertArrayEquals(InternalKey.afterAllVersions(user), meta.lastKeys()[i], "entry " + i + " read back");
      int[] p = {it.valueOffset()};
      assertEquals(meta.blockLengths()[i], Coding.getVarint(it.data(), p, it.valueOffset() + it.valueLength()));
      assertEquals(it.valueOffset() + it.valueLength(), p[0], "entry " + i + ": nothing after the length");
    }
    assertEquals(meta.lastKeys().length, i);

    assertReadsBack(file, 0, data);
  }

  @Test
  void aUserKeyWithVersionsInTwoBlocksKeepsTheInternalKeyIndex() throws IOException {
    TableTestData data = distinctKeys(new Random(11), 3_000, 60);
    Path file = write(data);
    assertEquals(TableFormat.TYPE_INDEX, indexType(file, loadOnly(file)));
    assertReadsBack(file, 0, data);
  }

  @Test
  void aVersionOneFileReadsAsWrittenAndTakesAVersionTwoAppend() throws IOException {
    Path file = dir.resolve("000007.mst");
    try (InputStream in = getClass().getResourceAsStream("/format/mstable-v1.mst")) {
      assertNotNull(in, "test resource format/mstable-v1.mst");
      Files.copy(in, file);
    }
    assertEquals(1, footerVersion(file));
    assertReadsBack(file, 0, v1Sequence(0));
    assertReadsBack(file, 1, v1Sequence(1));

    TableTestData appended = distinctKeys(new Random(3), 150, 0);
    try (MSTableWriter w = MSTableWriter.openForAppend(LocalFs.INSTANCE, file, 7, TableOptions.DEFAULT, CMP)) {
      appended.writeTo(w);
    }
    assertEquals(TableFormat.VERSION, footerVersion(file));
    try (FsFile f = LocalFs.INSTANCE.open(file, Fs.Mode.READ)) {
      List<TableMetadata.Sequence> seqs = TableMetadata.load(f, file, -1, true, CMP).sequences();
      assertEquals(TableFormat.TYPE_INDEX, indexType(file, seqs.get(0)));
      assertEquals(TableFormat.TYPE_INDEX, indexType(file, seqs.get(1)));
      assertEquals(TableFormat.TYPE_USER_INDEX, indexType(file, seqs.get(2)));
    }
    assertReadsBack(file, 0, v1Sequence(0));
    assertReadsBack(file, 1, v1Sequence(1));
    assertReadsBack(file, 2, appended);
  }

  @Test
  void aFlippedIndexTypeByteIsAChecksumError() throws IOException {
    Path file = write(distinctKeys(new Random(9), 2_000, 0));
    TableMetadata.Sequence meta = loadOnly(file);
    long typeAt = meta.pointer().offset() + meta.props().indexLength();
    byte[] b = Files.readAllBytes(file);
    assertEquals(TableFormat.TYPE_USER_INDEX, b[(int) typeAt]);
    b[(int) typeAt] = TableFormat.TYPE_INDEX;
    Files.write(file, b);
    TableCorruptionException e = assertThrows(TableCorruptionException.class, () -> open(file));
    assertTrue(e.getMessage().contains("checksum"), e.getMessage());
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * {@code n} user keys {@code user%09d} at random gaps, one version each with 20 to 300 bytes of
   * value, except that {@code versionsOfOne > 0} gives the middle key that many versions of 200
   * bytes each, enough to span data blocks.
   */
  private static TableTestData distinctKeys(Random r, int n, int versionsOfOne) {
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    int k = 0;
    for (int i = 0; i < n; i++) {
      k += 1 + r.nextInt(20);
      byte[] user = String.format("user%09d", k).getBytes(StandardCharsets.US_ASCII);
      int versions = i == n / 2 && versionsOfOne > 0 ? versionsOfOne : 1;
      for (int v = versions; v >= 1; v--) {
        byte[] value = new byte[versions > 1 ? 200 : 20 + r.nextInt(281)];
        r.nextBytes(value);
        keys.add(InternalKey.encode(user, 100L * i + v, ValueType.PUT));
        values.add(value);
      }
    }
    return TableTestData.of(keys, values);
  }

  /** The entries of sequence {@code s} of {@code format/mstable-v1.mst}. */
  private static TableTestData v1Sequence(int s) {
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    for (int i = s; i < 200; i += 2) {
      byte[] user = String.format("key%05d", i).getBytes(StandardCharsets.US_ASCII);
      int versions = s == 1 && i == 101 ? 40 : 1;
      for (int v = versions - 1; v >= 0; v--) {
        keys.add(InternalKey.encode(user, s == 0 ? 1000 + i : 5000 + i * 100 + v, ValueType.PUT));
        values.add(v1Value(i, v));
      }
    }
    return TableTestData.of(keys, values);
  }

  private static byte[] v1Value(int i, int version) {
    byte[] v = new byte[60 + (i % 7) * 20];
    for (int j = 0; j < v.length; j++) {
      v[j] = (byte) ('a' + (i * 31 + version * 7 + j) % 26);
    }
    return v;
  }

  private Path write(TableTestData data) throws IOException {
    Path file = dir.resolve("000001.mst");
    try (MSTableWriter w = MSTableWriter.create(LocalFs.INSTANCE, file, 1, 0, TableOptions.DEFAULT, CMP)) {
      data.writeTo(w);
    }
    return file;
  }

  private static MSTableReader open(Path file) throws IOException {
    return MSTableReader.open(LocalFs.INSTANCE, file, 1, new NoCacheForTests(), TableOptions.DEFAULT, CMP);
  }

  private static TableMetadata.Sequence loadOnly(Path file) throws IOException {
    try (FsFile f = LocalFs.INSTANCE.open(file, Fs.Mode.READ)) {
      List<TableMetadata.Sequence> seqs = TableMetadata.load(f, file, -1, true, CMP).sequences();
      assertEquals(1, seqs.size());
      return seqs.get(0);
    }
  }

  /** The type byte of the sequence's index block, read from the file. */
  private static byte indexType(Path file, TableMetadata.Sequence meta) throws IOException {
    return Files.readAllBytes(file)[(int) (meta.pointer().offset() + meta.props().indexLength())];
  }

  private static byte[] readIndexPayload(Path file, TableMetadata.Sequence meta) throws IOException {
    int at = (int) meta.pointer().offset();
    return Arrays.copyOfRange(Files.readAllBytes(file), at, at + meta.props().indexLength());
  }

  private static int footerVersion(Path file) throws IOException {
    try (FsFile f = LocalFs.INSTANCE.open(file, Fs.Mode.READ)) {
      byte[] b = new byte[Footer.SIZE];
      f.readFully(f.size() - Footer.SIZE, ByteBuffer.wrap(b));
      return Footer.decode(b, file, f.size() - Footer.SIZE).version();
    }
  }

  /** Sequence {@code i} of {@code file} holds exactly {@code data}, by its index, iteration and seeks. */
  private static void assertReadsBack(Path file, int i, TableTestData data) throws IOException {
    try (MSTableReader r = open(file)) {
      assertIndexBrackets(r.sequence(i));
      data.assertIteratesExactly(r.sequence(i));
      assertSeeksMatch(r.sequence(i), data);
    }
  }

  /** Every block's index key is at least its last key and below the next block's first key. */
  private static void assertIndexBrackets(SequenceReader s) throws IOException {
    byte[] previousIndexKey = null;
    for (int i = 0; i < s.blockCount(); i++) {
      Block.Iter it = s.block(i).iterator(CMP);
      it.seekToFirst();
      if (previousIndexKey != null) {
        assertTrue(CMP.compare(previousIndexKey, it.key()) < 0, "block " + (i - 1) + ": index key reaches block " + i);
      }
      byte[] last = null;
      for (; it.valid(); it.next()) {
        last = it.key();
      }
      assertTrue(CMP.compare(last, s.indexKey(i)) <= 0, "block " + i + ": index key below its last key");
      previousIndexKey = s.indexKey(i);
    }
  }

  /** Seeks to every key, just past every version, past every user key, and to each index key. */
  private static void assertSeeksMatch(SequenceReader s, TableTestData data) throws IOException {
    for (int i = 0; i < data.size(); i++) {
      byte[] key = data.keys.get(i);
      byte[] user = InternalKey.userKey(key);
      assertSeek(s, data, key);
      assertSeek(s, data, InternalKey.seekKey(user, InternalKey.sequence(key) - 1));
      assertSeek(s, data, InternalKey.afterAllVersions(user));
      assertSeek(s, data, InternalKey.seekKey(Arrays.copyOf(user, user.length + 1), InternalKey.MAX_SEQUENCE));
    }
    for (int i = 0; i < s.blockCount(); i++) {
      assertSeek(s, data, s.indexKey(i));
    }
    byte[] beyond = new byte[16];
    Arrays.fill(beyond, (byte) 0xFF);
    assertNull(s.seek(InternalKey.seekKey(beyond, 0)));
  }

  private static void assertSeek(SequenceReader s, TableTestData data, byte[] target) throws IOException {
    int expected = data.lowerBound(target);
    Entry e = s.seek(target);
    if (expected == data.size()) {
      assertNull(e, "seek past the end");
    } else {
      assertNotNull(e, "seek found nothing");
      assertArrayEquals(data.keys.get(expected), e.key());
      assertArrayEquals(data.values.get(expected), e.value());
    }
  }
}
