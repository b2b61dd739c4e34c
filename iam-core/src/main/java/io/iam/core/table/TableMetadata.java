package io.iam.core.table;

import io.iam.core.fs.FsFile;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.table.SequenceProps.MetaPointer;
import io.iam.core.util.Coding;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads and verifies a file's footer and the metadata chain of its sequences: one read for the
 * footer, one for the whole metadata region (from the newest sequence's metadata to the footer).
 * Static only.
 */
final class TableMetadata {

  private TableMetadata() {}

  /** What a file holds: its size, footer and the kept sequences, oldest first. */
  record Loaded(long fileSize, long footerOffset, Footer footer, List<Sequence> sequences) {}

  /**
   * One sequence's metadata. The index arrays and filter are null when not decoded.
   *
   * @param lastKeys the index key of each data block: at least the block's last internal key and
   *     below the next block's first (the last key itself, or a shorter separator); a user-key
   *     index's keys are read back with the smallest trailer ({@link InternalKey#afterAllVersions})
   * @param blockOffsets the offset of each data block
   * @param blockLengths the payload length of each data block
   * @param filter the Bloom filter, or null if the sequence has none
   */
  record Sequence(SequenceProps props, MetaPointer pointer, byte[][] lastKeys, long[] blockOffsets, int[] blockLengths,
      BloomFilter filter) {}

  /**
   * Loads the footer and the metadata of the oldest {@code keep} sequences ({@code -1}: all).
   *
   * @param decodeBodies whether to decode the index and filter blocks (readers) or only the
   *     properties (writers)
   * @throws TableCorruptionException if anything fails verification, or the file holds fewer than
   *     {@code keep} sequences
   */
  static Loaded load(FsFile f, Path path, int keep, boolean decodeBodies, InternalKeyComparator cmp) throws IOException {
    long size = f.size();
    if (size < Footer.SIZE) {
      throw new TableCorruptionException(path, 0, "file too short for an MSTable footer (" + size + " bytes)");
    }
    long footerOffset = size - Footer.SIZE;
    Footer footer = Footer.decode(read(f, path, footerOffset, Footer.SIZE, "footer"), path, footerOffset);
    int count = footer.sequenceCount();
    if (keep < 0) {
      keep = count;
    } else if (keep > count) {
      throw new TableCorruptionException(path, footerOffset,
          "the footer records " + count + " sequences but " + keep + " were expected");
    }
    if (count == 0) {
      return new Loaded(size, footerOffset, footer, List.of());
    }
    long regionStart = footer.metaOffset();
    long regionLength = footerOffset - regionStart;
    if (regionLength > Integer.MAX_VALUE - 64) {
      throw new TableCorruptionException(path, regionStart, "metadata region too large: " + regionLength + " bytes");
    }
    byte[] region = read(f, path, regionStart, (int) regionLength, "metadata");
    Sequence[] out = new Sequence[keep];
    MetaPointer cur = new MetaPointer(footer.metaOffset(), footer.metaLength(), footer.propsLength());
    long dataLimit = footer.dataEnd();
    for (int i = count - 1; i >= 0; i--) {
      if (cur.offset() < regionStart || cur.length() > footerOffset - cur.offset()
          || (long) cur.propsLength() + TableFormat.TRAILER_SIZE > cur.length()) {
        throw new TableCorruptionException(path, cur.offset(), "metadata pointer of sequence " + i + " out of range");
      }
      int base = (int) (cur.offset() - regionStart);
      int propsAt = base + (int) (cur.length() - cur.propsLength() - TableFormat.TRAILER_SIZE);
      long propsOffset = regionStart + propsAt;
      TableFormat.verify(region, propsAt, cur.propsLength(), TableFormat.TYPE_PROPERTIES, path, propsOffset);
      SequenceProps props;
      try {
        props = SequenceProps.decode(region, propsAt, cur.propsLength(), cur.offset(), cur.length());
      } catch (IllegalArgumentException e) {
        throw new TableCorruptionException(path, propsOffset, "malformed properties: " + e.getMessage(), e);
      }
      SequenceHandle h = props.handle();
      long filterSealed = props.filterLength() == 0 ? 0 : props.filterLength() + (long) TableFormat.TRAILER_SIZE;
      if (h.index() != i) {
        throw new TableCorruptionException(path, propsOffset, "found sequence " + h.index() + " where " + i + " was expected");
      }
      if ((long) props.indexLength() + TableFormat.TRAILER_SIZE + filterSealed + cur.propsLength()
          + TableFormat.TRAILER_SIZE != cur.length()) {
        throw new TableCorruptionException(path, propsOffset, "metadata block lengths do not add up");
      }
      boolean newest = i == count - 1;
      if (newest ? h.dataEnd() != dataLimit : h.dataEnd() > dataLimit) {
        throw new TableCorruptionException(path, propsOffset, "data range of sequence " + i + " overlaps a newer one");
      }
      if (i < keep) {
        out[i] = decodeBodies ? decodeBodies(region, base, regionStart, props, cur, path, cmp)
            : new Sequence(props, cur, null, null, null, null);
      }
      if (i > 0) {
        MetaPointer prev = props.previous();
        if (prev.offset() < cur.offset() + cur.length()) {
          throw new TableCorruptionException(path, propsOffset, "previous metadata pointer overlaps this sequence");
        }
        cur = prev;
        dataLimit = h.dataStart();
      }
    }
    return new Loaded(size, footerOffset, footer, List.of(out));
  }

  private static Sequence decodeBodies(byte[] region, int base, long regionStart, SequenceProps props, MetaPointer at,
      Path path, InternalKeyComparator cmp) throws TableCorruptionException {
    SequenceHandle h = props.handle();
    long indexOffset = regionStart + base;
    boolean userKeys = base + props.indexLength() < region.length
        && region[base + props.indexLength()] == TableFormat.TYPE_USER_INDEX;
    TableFormat.verify(region, base, props.indexLength(), userKeys ? TableFormat.TYPE_USER_INDEX : TableFormat.TYPE_INDEX,
        path, indexOffset);
    Block index = Block.parse(Arrays.copyOfRange(region, base, base + props.indexLength()), props.indexLength(), path,
        indexOffset);
    List<byte[]> keys = new ArrayList<>();
    long[] offsets = new long[16];
    int[] lengths = new int[16];
    long next = h.dataStart();
    Block.Iter it = index.iterator(cmp);
    for (it.seekToFirst(); it.valid(); it.next()) {
      byte[] key = userKeys ? InternalKey.afterAllVersions(it.key()) : it.key();
      if (key.length < 8 || (!keys.isEmpty() && cmp.compare(keys.get(keys.size() - 1), key) >= 0)) {
        throw new TableCorruptionException(path, indexOffset, "index keys out of order");
      }
      int[] p = {it.valueOffset()};
      long off;
      long len;
      try {
        int limit = it.valueOffset() + it.valueLength();
        off = userKeys ? next : Coding.getVarint(it.data(), p, limit);
        len = Coding.getVarint(it.data(), p, limit);
      } catch (IllegalArgumentException e) {
        throw new TableCorruptionException(path, indexOffset, "malformed block handle in index", e);
      }
      if (off != next || len < 0 || len > Integer.MAX_VALUE - 64 || off + len + TableFormat.TRAILER_SIZE > h.dataEnd()) {
        throw new TableCorruptionException(path, indexOffset, "index entry points outside the sequence's data");
      }
      int n = keys.size();
      if (n == offsets.length) {
        offsets = Arrays.copyOf(offsets, 2 * n);
        lengths = Arrays.copyOf(lengths, 2 * n);
      }
      offsets[n] = off;
      lengths[n] = (int) len;
      keys.add(key);
      next = off + len + TableFormat.TRAILER_SIZE;
    }
    byte[] lastIndexKey = userKeys ? InternalKey.afterAllVersions(InternalKey.userKey(h.largest())) : h.largest();
    if (keys.isEmpty() || next != h.dataEnd() || !Arrays.equals(keys.get(keys.size() - 1), lastIndexKey)) {
      throw new TableCorruptionException(path, indexOffset, "index does not cover the sequence's data");
    }
    BloomFilter filter = null;
    if (props.filterLength() > 0) {
      int fb = base + props.indexLength() + TableFormat.TRAILER_SIZE;
      TableFormat.verify(region, fb, props.filterLength(), TableFormat.TYPE_FILTER, path, regionStart + fb);
      if (props.filterLength() < 2) {
        throw new TableCorruptionException(path, regionStart + fb, "filter block too short");
      }
      filter = BloomFilter.fromBytes(Arrays.copyOfRange(region, fb, fb + props.filterLength()));
    }
    int n = keys.size();
    return new Sequence(props, at, keys.toArray(new byte[0][]), Arrays.copyOf(offsets, n), Arrays.copyOf(lengths, n),
        filter);
  }

  private static byte[] read(FsFile f, Path path, long offset, int length, String what) throws IOException {
    byte[] b = new byte[length];
    try {
      f.readFully(offset, ByteBuffer.wrap(b));
    } catch (EOFException e) {
      throw new TableCorruptionException(path, offset, what + " is truncated", e);
    }
    return b;
  }
}
