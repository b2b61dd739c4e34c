package io.iam.core.table;

import io.iam.core.util.Coding;

/**
 * The properties block of one sequence: its handle's fields, the lengths of its index and filter
 * blocks (which start its metadata, in that order), and a pointer to the previous sequence's
 * metadata (meaningful only when {@code handle.index() > 0}).
 */
record SequenceProps(SequenceHandle handle, int indexLength, int filterLength, MetaPointer previous) {

  /** Locates a sequence's metadata: its offset and length, and its properties payload length. */
  record MetaPointer(long offset, long length, int propsLength) {
    static final MetaPointer NONE = new MetaPointer(0, 0, 0);
  }

  byte[] encode() {
    ByteSink s = new ByteSink(128 + handle.smallest().length + handle.largest().length);
    s.putVarint(handle.index());
    s.putVarint(handle.dataStart());
    s.putVarint(handle.dataEnd());
    s.putVarint(handle.entries());
    s.putVarint(handle.dataBytes());
    s.putVarint(handle.smallestSequence());
    s.putVarint(handle.largestSequence());
    s.putBytes(handle.smallest());
    s.putBytes(handle.largest());
    s.putVarint(indexLength);
    s.putVarint(filterLength);
    if (handle.index() > 0) {
      s.putVarint(previous.offset());
      s.putVarint(previous.length());
      s.putVarint(previous.propsLength());
    }
    return s.toArray();
  }

  /**
   * Decodes a properties payload; the sequence's own metadata location is supplied by whoever
   * pointed at it.
   *
   * @throws IllegalArgumentException if the payload is malformed
   */
  static SequenceProps decode(byte[] b, int off, int len, long metaOffset, long metaLength) {
    int limit = off + len;
    int[] p = {off};
    long index = Coding.getVarint(b, p, limit);
    long dataStart = Coding.getVarint(b, p, limit);
    long dataEnd = Coding.getVarint(b, p, limit);
    long entries = Coding.getVarint(b, p, limit);
    long dataBytes = Coding.getVarint(b, p, limit);
    long minSeq = Coding.getVarint(b, p, limit);
    long maxSeq = Coding.getVarint(b, p, limit);
    byte[] smallest = bytes(b, p, limit);
    byte[] largest = bytes(b, p, limit);
    long indexLength = Coding.getVarint(b, p, limit);
    long filterLength = Coding.getVarint(b, p, limit);
    MetaPointer prev = MetaPointer.NONE;
    if (index > 0) {
      long po = Coding.getVarint(b, p, limit);
      long pl = Coding.getVarint(b, p, limit);
      long pp = Coding.getVarint(b, p, limit);
      if (po < 0 || pl < 0 || pp < 0 || pp > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("bad previous-metadata pointer");
      }
      prev = new MetaPointer(po, pl, (int) pp);
    }
    if (p[0] != limit) {
      throw new IllegalArgumentException("trailing bytes in properties");
    }
    if (index < 0 || index > Integer.MAX_VALUE || dataStart < 0 || dataEnd < dataStart || entries < 1 || dataBytes < 0
        || minSeq < 0 || maxSeq < minSeq || indexLength < 0 || indexLength > Integer.MAX_VALUE
        || filterLength < 0 || filterLength > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("properties out of range");
    }
    SequenceHandle h = new SequenceHandle((int) index, dataStart, dataEnd, metaOffset, metaLength, entries, dataBytes,
        smallest, largest, minSeq, maxSeq);
    return new SequenceProps(h, (int) indexLength, (int) filterLength, prev);
  }

  private static byte[] bytes(byte[] b, int[] p, int limit) {
    long n = Coding.getVarint(b, p, limit);
    if (n < 0 || n > limit - p[0]) {
      throw new IllegalArgumentException("bad key length");
    }
    byte[] out = new byte[(int) n];
    System.arraycopy(b, p[0], out, 0, (int) n);
    p[0] += (int) n;
    return out;
  }
}
