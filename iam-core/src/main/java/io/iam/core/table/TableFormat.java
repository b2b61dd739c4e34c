package io.iam.core.table;

import io.iam.core.fs.FsFile;
import io.iam.core.util.Checksums;
import io.iam.core.util.Coding;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** Constants and block framing of the MSTable format (see {@code package-info}). Static only. */
final class TableFormat {

  /** "IAMSTBL1" read as a little-endian long. */
  static final long MAGIC = 0x314c4254534d4149L;

  /**
   * The footer version this code writes. Version 2 added {@link #TYPE_USER_INDEX}; version 1 files
   * (whose sequences all have {@link #TYPE_INDEX} blocks) read the same as ever.
   */
  static final int VERSION = 2;

  /** The oldest footer version this code reads. */
  static final int OLDEST_READABLE_VERSION = 1;

  /** Bytes after each block payload: type (1) and masked CRC32C (4). */
  static final int TRAILER_SIZE = 5;

  static final byte TYPE_DATA = 1;
  static final byte TYPE_INDEX = 2;
  static final byte TYPE_FILTER = 3;
  static final byte TYPE_PROPERTIES = 4;
  /**
   * A block index keyed by bare user keys whose entries hold only the data block's payload length
   * (its offset is where the previous block ends). Written when no user key has versions on both
   * sides of a block boundary, as RocksDB's {@code index_key_is_user_key}: 8 bytes of trailer and
   * the offset varint fewer per data block than {@link #TYPE_INDEX}.
   */
  static final byte TYPE_USER_INDEX = 5;

  private TableFormat() {}

  static String typeName(byte type) {
    return switch (type) {
      case TYPE_DATA -> "data";
      case TYPE_INDEX -> "index";
      case TYPE_FILTER -> "filter";
      case TYPE_PROPERTIES -> "properties";
      case TYPE_USER_INDEX -> "user-key index";
      default -> "type-" + (type & 0xFF);
    };
  }

  /**
   * Appends the trailer of the payload {@code out[payloadStart, out.size())}: the type byte and the
   * masked CRC32C of payload and type.
   */
  static void seal(ByteSink out, int payloadStart, byte type) {
    out.put(type);
    int crc = Checksums.crc32c(out.array(), payloadStart, out.size() - payloadStart);
    out.putFixed32(Checksums.mask(crc));
  }

  /** Appends {@code payload} as a complete block of the given type. */
  static void appendBlock(ByteSink out, byte[] payload, byte type) {
    int start = out.size();
    out.put(payload);
    seal(out, start, type);
  }

  /**
   * Verifies the block whose payload is {@code buf[off, off+payloadLength)} followed by its
   * trailer, located at {@code fileOffset} in {@code file}.
   */
  static void verify(byte[] buf, int off, int payloadLength, byte expectedType, Path file, long fileOffset)
      throws TableCorruptionException {
    if (payloadLength < 0 || (long) off + payloadLength + TRAILER_SIZE > buf.length) {
      throw new TableCorruptionException(file, fileOffset, TableFormat.typeName(expectedType) + " block extends past its region");
    }
    int stored = Coding.getFixed32(buf, off + payloadLength + 1);
    int actual = Checksums.mask(Checksums.crc32c(buf, off, payloadLength + 1));
    if (stored != actual) {
      throw new TableCorruptionException(file, fileOffset, typeName(expectedType) + " block checksum mismatch");
    }
    byte type = buf[off + payloadLength];
    if (type != expectedType) {
      throw new TableCorruptionException(file, fileOffset,
          "expected a " + typeName(expectedType) + " block, found " + typeName(type));
    }
  }

  /**
   * Reads and verifies the block at {@code offset}. The returned array is the payload followed by
   * its 5-byte trailer (kept, to avoid a copy).
   */
  static byte[] readBlock(FsFile f, Path file, long offset, int payloadLength, byte type) throws IOException {
    byte[] buf = new byte[payloadLength + TRAILER_SIZE];
    try {
      f.readFully(offset, ByteBuffer.wrap(buf));
    } catch (EOFException e) {
      throw new TableCorruptionException(file, offset, typeName(type) + " block is truncated", e);
    }
    verify(buf, 0, payloadLength, type, file, offset);
    return buf;
  }
}
