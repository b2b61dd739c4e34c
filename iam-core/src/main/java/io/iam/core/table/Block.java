package io.iam.core.table;

import io.iam.core.key.InternalKeyComparator;
import io.iam.core.util.Coding;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A read-only view of one verified block payload (the format {@link BlockBuilder} writes), at
 * some offset of a byte array. Immutable and shareable between threads as long as nobody rewrites
 * the array (a block parsed from an iterator's read-ahead window lives only until that window is
 * refilled); each {@link Iter} is single-threaded. Malformed entries raise {@link
 * TableCorruptionException} naming the block's file offset.
 */
final class Block {

  private final byte[] data;
  /** Where the payload starts in {@code data}; every offset below is absolute in {@code data}. */
  private final int base;
  private final int restartsOffset;
  private final int numRestarts;
  private final Path file;
  private final long fileOffset;

  private Block(byte[] data, int base, int restartsOffset, int numRestarts, Path file, long fileOffset) {
    this.data = data;
    this.base = base;
    this.restartsOffset = restartsOffset;
    this.numRestarts = numRestarts;
    this.file = file;
    this.fileOffset = fileOffset;
  }

  /** Views {@code data[0, limit)} as a block read from {@code fileOffset} of {@code file}. */
  static Block parse(byte[] data, int limit, Path file, long fileOffset) throws TableCorruptionException {
    return parse(data, 0, limit, file, fileOffset);
  }

  /**
   * Views {@code data[base, base + length)} as a block read from {@code fileOffset} of {@code
   * file}, without copying it.
   */
  static Block parse(byte[] data, int base, int length, Path file, long fileOffset) throws TableCorruptionException {
    if (base < 0 || length < 4 || length > data.length - base) {
      throw new TableCorruptionException(file, fileOffset, "block too short");
    }
    int n = Coding.getFixed32(data, base + length - 4);
    long restartsOffset = base + length - 4 - 4L * n;
    if (n < 0 || restartsOffset < base) {
      throw new TableCorruptionException(file, fileOffset, "bad restart count " + n);
    }
    return new Block(data, base, (int) restartsOffset, n, file, fileOffset);
  }

  Iter iterator(InternalKeyComparator cmp) {
    return new Iter(cmp);
  }

  private TableCorruptionException corrupt(String what) {
    return new TableCorruptionException(file, fileOffset, what);
  }

  /** A cursor over the entries of the block. Starts unpositioned (invalid). */
  final class Iter {
    private final InternalKeyComparator cmp;
    private byte[] key = new byte[64];
    private int keyLength;
    private int valueOffset;
    private int valueLength;
    private int nextOffset;
    private boolean valid;

    private Iter(InternalKeyComparator cmp) {
      this.cmp = cmp;
      this.nextOffset = restartsOffset;
    }

    boolean valid() {
      return valid;
    }

    /** The current key lives in {@code keyArray()[0, keyLength())}; overwritten on each move. */
    byte[] keyArray() {
      return key;
    }

    int keyLength() {
      return keyLength;
    }

    byte[] data() {
      return data;
    }

    int valueOffset() {
      return valueOffset;
    }

    int valueLength() {
      return valueLength;
    }

    byte[] key() {
      return Arrays.copyOf(key, keyLength);
    }

    byte[] value() {
      return Arrays.copyOfRange(data, valueOffset, valueOffset + valueLength);
    }

    void seekToFirst() throws TableCorruptionException {
      if (numRestarts == 0) {
        valid = false;
        return;
      }
      seekToRestart(0);
      next();
    }

    /** Moves to the first entry whose key is at least {@code target}, or becomes invalid. */
    void seek(byte[] target) throws TableCorruptionException {
      if (numRestarts == 0) {
        valid = false;
        return;
      }
      int lo = 0;
      int hi = numRestarts - 1;
      while (lo < hi) {
        int mid = (lo + hi + 1) >>> 1;
        seekToRestart(mid);
        next();
        if (!valid) {
          throw corrupt("restart point " + mid + " has no entry");
        }
        if (compareTo(target) < 0) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      seekToRestart(lo);
      while (true) {
        next();
        if (!valid || compareTo(target) >= 0) {
          return;
        }
      }
    }

    private int compareTo(byte[] target) throws TableCorruptionException {
      try {
        return cmp.compare(key, 0, keyLength, target, 0, target.length);
      } catch (IllegalArgumentException e) {
        throw new TableCorruptionException(file, fileOffset, "malformed key in block", e);
      }
    }

    private void seekToRestart(int index) throws TableCorruptionException {
      int off = Coding.getFixed32(data, restartsOffset + 4 * index);
      if (off < 0 || off >= restartsOffset - base) {
        throw corrupt("restart point " + index + " out of range: " + off);
      }
      keyLength = 0;
      valid = false;
      nextOffset = base + off;
    }

    /** Advances to the next entry, or becomes invalid at the end of the block. */
    void next() throws TableCorruptionException {
      if (nextOffset >= restartsOffset) {
        valid = false;
        nextOffset = restartsOffset;
        return;
      }
      int[] pos = {nextOffset};
      long shared;
      long unshared;
      long vlen;
      try {
        shared = Coding.getVarint(data, pos, restartsOffset);
        unshared = Coding.getVarint(data, pos, restartsOffset);
        vlen = Coding.getVarint(data, pos, restartsOffset);
      } catch (IllegalArgumentException e) {
        throw new TableCorruptionException(file, fileOffset, "malformed entry header at block position " + (nextOffset - base), e);
      }
      int p = pos[0];
      if (shared > keyLength || unshared < 0 || vlen < 0 || p + unshared + vlen > restartsOffset) {
        throw corrupt("malformed entry at block position " + (nextOffset - base));
      }
      int newLength = (int) (shared + unshared);
      if (key.length < newLength) {
        key = Arrays.copyOf(key, Math.max(newLength, 2 * key.length));
      }
      System.arraycopy(data, p, key, (int) shared, (int) unshared);
      keyLength = newLength;
      valueOffset = p + (int) unshared;
      valueLength = (int) vlen;
      nextOffset = valueOffset + valueLength;
      valid = true;
    }
  }
}
