package io.iam.core.util;

import java.util.zip.CRC32C;

/**
 * CRC32C checksums, masked as LevelDB does: a CRC stored next to the data it covers is rotated
 * and offset, so that a CRC computed over data that itself contains CRCs stays well distributed.
 */
public final class Checksums {

  private static final int MASK_DELTA = 0xa282ead8;

  private Checksums() {}

  public static int crc32c(byte[] data, int off, int len) {
    CRC32C crc = new CRC32C();
    crc.update(data, off, len);
    return (int) crc.getValue();
  }

  /** CRC32C of a type byte followed by {@code data[off, off+len)}. */
  public static int crc32c(byte type, byte[] data, int off, int len) {
    CRC32C crc = new CRC32C();
    crc.update(type);
    crc.update(data, off, len);
    return (int) crc.getValue();
  }

  public static int mask(int crc) {
    return ((crc >>> 15) | (crc << 17)) + MASK_DELTA;
  }

  public static int unmask(int masked) {
    int rot = masked - MASK_DELTA;
    return (rot >>> 17) | (rot << 15);
  }
}
