package io.iam.core.table;

import io.iam.core.util.Coding;
import java.util.Arrays;

/** A growable byte array with little-endian and varint appenders. Not thread-safe. */
final class ByteSink {

  private byte[] buf;
  private int size;

  ByteSink(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  int size() {
    return size;
  }

  /** The backing array; valid up to {@link #size()} until the next append. */
  byte[] array() {
    return buf;
  }

  void reset() {
    size = 0;
  }

  private void ensure(int extra) {
    long need = (long) size + extra;
    if (need > buf.length) {
      if (need > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("buffer would exceed 2 GiB");
      }
      buf = Arrays.copyOf(buf, (int) Math.max(need, Math.min(Integer.MAX_VALUE - 16L, 2L * buf.length)));
    }
  }

  void put(byte b) {
    ensure(1);
    buf[size++] = b;
  }

  void put(byte[] src, int off, int len) {
    ensure(len);
    System.arraycopy(src, off, buf, size, len);
    size += len;
  }

  void put(byte[] src) {
    put(src, 0, src.length);
  }

  void putVarint(long v) {
    ensure(10);
    size = Coding.putVarint(buf, size, v);
  }

  void putFixed32(int v) {
    ensure(4);
    Coding.putFixed32(buf, size, v);
    size += 4;
  }

  /** A length-prefixed byte string. */
  void putBytes(byte[] b) {
    putVarint(b.length);
    put(b);
  }

  byte[] toArray() {
    return Arrays.copyOf(buf, size);
  }
}
