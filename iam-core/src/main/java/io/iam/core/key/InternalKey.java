package io.iam.core.key;

/**
 * The key format inside the engine: the user key followed by an 8-byte little-endian trailer
 * {@code (sequence << 8) | type}. Internal keys order by user key ascending, then by trailer
 * descending, so the newest version of a key comes first (as in LevelDB). Static helpers only.
 */
public final class InternalKey {

  /** Sequence numbers take the trailer's high 56 bits. */
  public static final long MAX_SEQUENCE = (1L << 56) - 1;

  /** The trailer's type byte used for lookups: sorts before every entry of the same sequence. */
  static final int SEEK_TYPE = 0xFF;

  public static final int TRAILER_BYTES = 8;

  private InternalKey() {}

  public static byte[] encode(byte[] userKey, long sequence, ValueType type) {
    return encode(userKey, trailer(sequence, type.code()));
  }

  /**
   * The key that a lookup at snapshot {@code sequence} seeks to: it sorts after every version of
   * {@code userKey} newer than the snapshot and before every other version.
   */
  public static byte[] seekKey(byte[] userKey, long sequence) {
    return encode(userKey, trailer(sequence, SEEK_TYPE));
  }

  /**
   * The user key with the smallest trailer (0): it sorts after every version of {@code userKey} and
   * before every version of any larger user key. Table indexes that store bare user keys are read
   * back into internal keys this way.
   */
  public static byte[] afterAllVersions(byte[] userKey) {
    return encode(userKey, 0L);
  }

  private static long trailer(long sequence, int type) {
    if (sequence < 0 || sequence > MAX_SEQUENCE) {
      throw new IllegalArgumentException("sequence out of range: " + sequence);
    }
    return (sequence << 8) | type;
  }

  /** {@link #encode(byte[], long, ValueType)} of the user key {@code src[offset, offset + length)}. */
  public static byte[] encode(byte[] src, int offset, int length, long sequence, ValueType type) {
    return encode(src, offset, length, trailer(sequence, type.code()));
  }

  private static byte[] encode(byte[] userKey, long trailer) {
    return encode(userKey, 0, userKey.length, trailer);
  }

  private static byte[] encode(byte[] src, int offset, int length, long trailer) {
    byte[] out = new byte[length + TRAILER_BYTES];
    System.arraycopy(src, offset, out, 0, length);
    for (int i = 0; i < TRAILER_BYTES; i++) {
      out[length + i] = (byte) (trailer >>> (8 * i));
    }
    return out;
  }

  /** The user key's length in an internal key of length {@code internalLength}. */
  public static int userKeyLength(int internalLength) {
    if (internalLength < TRAILER_BYTES) {
      throw new IllegalArgumentException("internal key too short: " + internalLength + " bytes");
    }
    return internalLength - TRAILER_BYTES;
  }

  public static byte[] userKey(byte[] internalKey) {
    byte[] out = new byte[userKeyLength(internalKey.length)];
    System.arraycopy(internalKey, 0, out, 0, out.length);
    return out;
  }

  public static long trailer(byte[] key, int off, int len) {
    int t = off + userKeyLength(len);
    long v = 0;
    for (int i = TRAILER_BYTES - 1; i >= 0; i--) {
      v = (v << 8) | (key[t + i] & 0xFFL);
    }
    return v;
  }

  public static long sequence(byte[] internalKey) {
    return trailer(internalKey, 0, internalKey.length) >>> 8;
  }

  public static ValueType type(byte[] internalKey) {
    return ValueType.of((int) (trailer(internalKey, 0, internalKey.length) & 0xFF));
  }
}
