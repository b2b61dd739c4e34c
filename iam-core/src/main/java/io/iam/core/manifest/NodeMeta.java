package io.iam.core.manifest;

import java.util.Arrays;

/**
 * What the manifest knows of one node of an LSA/IAM tree: an id that stays with the node while
 * its data is appended to, merged or flushed away, an inclusive user-key range {@code [lo, hi]}
 * that every record of the node lies in, and the MSTable holding its sequences, or none for a
 * node that flushed all its records and keeps only its range. Immutable.
 *
 * <p>The nodes of a level have disjoint ranges, sorted by key; a node's range may be wider than
 * its records.
 */
public record NodeMeta(long id, byte[] lo, byte[] hi, FileMeta file) {

  public NodeMeta {
    if (id < 1) {
      throw new IllegalArgumentException("bad node id " + id);
    }
    lo = lo.clone();
    hi = hi.clone();
  }

  /** A node holding {@code file}. */
  public static NodeMeta of(long id, byte[] lo, byte[] hi, FileMeta file) {
    return new NodeMeta(id, lo, hi, file);
  }

  /** The same node without data. */
  public NodeMeta emptied() {
    return new NodeMeta(id, lo, hi, null);
  }

  @Override
  public byte[] lo() {
    return lo.clone();
  }

  @Override
  public byte[] hi() {
    return hi.clone();
  }

  /** The low bound without copying; callers must not modify it. */
  public byte[] loRef() {
    return lo;
  }

  /** The high bound without copying; callers must not modify it. */
  public byte[] hiRef() {
    return hi;
  }

  /** Bytes of its committed sequences (0 if it has no file). */
  public long bytes() {
    return file == null ? 0 : file.fileSize();
  }

  /** Its committed sequences (0 if it has no file). */
  public int sequences() {
    return file == null ? 0 : file.sequenceCount();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NodeMeta n && n.id == id && Arrays.equals(n.lo, lo) && Arrays.equals(n.hi, hi)
        && java.util.Objects.equals(n.file, file);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id);
  }

  @Override
  public String toString() {
    return "node" + id + "[" + printable(lo) + ".." + printable(hi) + "]" + (file == null ? "" : file.toString());
  }

  private static String printable(byte[] key) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(key.length, 24); i++) {
      int c = key[i] & 0xFF;
      sb.append(c >= 0x20 && c < 0x7F ? String.valueOf((char) c) : String.format("\\x%02x", c));
    }
    return key.length > 24 ? sb + "…" : sb.toString();
  }
}
