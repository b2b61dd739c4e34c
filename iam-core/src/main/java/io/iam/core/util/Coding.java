package io.iam.core.util;

/** Little-endian fixed-width and varint encodings, shared by every on-disk format. */
public final class Coding {

  private Coding() {}

  public static void putFixed32(byte[] dst, int off, int v) {
    dst[off] = (byte) v;
    dst[off + 1] = (byte) (v >>> 8);
    dst[off + 2] = (byte) (v >>> 16);
    dst[off + 3] = (byte) (v >>> 24);
  }

  public static int getFixed32(byte[] src, int off) {
    return (src[off] & 0xFF) | (src[off + 1] & 0xFF) << 8 | (src[off + 2] & 0xFF) << 16 | (src[off + 3] & 0xFF) << 24;
  }

  public static void putFixed64(byte[] dst, int off, long v) {
    for (int i = 0; i < 8; i++) {
      dst[off + i] = (byte) (v >>> (8 * i));
    }
  }

  public static long getFixed64(byte[] src, int off) {
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | (src[off + i] & 0xFFL);
    }
    return v;
  }

  /** Bytes a varint of {@code v} takes (1 to 10). */
  public static int varintLength(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  /** Writes {@code v} as a varint at {@code off}; returns the offset after it. */
  public static int putVarint(byte[] dst, int off, long v) {
    while ((v & ~0x7FL) != 0) {
      dst[off++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    dst[off++] = (byte) v;
    return off;
  }

  /**
   * Reads a varint at {@code pos[0]} and advances it.
   *
   * @throws IllegalArgumentException if the varint is malformed or runs past {@code limit}
   */
  public static long getVarint(byte[] src, int[] pos, int limit) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos[0] >= limit) {
        throw new IllegalArgumentException("truncated varint");
      }
      byte b = src[pos[0]++];
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("malformed varint");
  }
}
