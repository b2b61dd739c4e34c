package io.iam.core.wal;

/** Constants of the log format; see the {@linkplain io.iam.core.wal package description}. */
final class LogFormat {

  /** Bytes per block; fragments never cross a block boundary. */
  static final int BLOCK_SIZE = 32 * 1024;

  /** Masked CRC32C (4 bytes), payload length (2 bytes), type (1 byte). */
  static final int HEADER_SIZE = 7;

  /** The largest payload one fragment can carry. */
  static final int MAX_FRAGMENT_PAYLOAD = BLOCK_SIZE - HEADER_SIZE;

  /** Reserved: zero-filled or preallocated space. Never written as a fragment. */
  static final int ZERO_TYPE = 0;

  static final int FULL_TYPE = 1;
  static final int FIRST_TYPE = 2;
  static final int MIDDLE_TYPE = 3;
  static final int LAST_TYPE = 4;

  private LogFormat() {}

  static String typeName(int type) {
    return switch (type) {
      case ZERO_TYPE -> "ZERO";
      case FULL_TYPE -> "FULL";
      case FIRST_TYPE -> "FIRST";
      case MIDDLE_TYPE -> "MIDDLE";
      case LAST_TYPE -> "LAST";
      default -> "type " + type;
    };
  }

  /** The offset where the block after the one holding {@code offset} starts. */
  static long nextBlockStart(long offset) {
    return (offset / BLOCK_SIZE + 1) * BLOCK_SIZE;
  }
}
