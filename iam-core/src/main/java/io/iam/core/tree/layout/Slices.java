package io.iam.core.tree.layout;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The level-1 nodes a shared flush file holds rows for, and the cell bytes of each node's slice.
 * A memstore flush into an internal level 1 writes one file for all of level 1 instead of one per
 * node (a host pays a fixed cost per file); each level-1 node counts its slice of that file as
 * its own bytes and as one of its sequences, and the nodes are emptied into level 2 together (see
 * {@link TreePlanner}). Recorded next to the file's {@link NodeTag} under {@link #KEY}: 16 bytes
 * per node, its id and its bytes, big-endian. Immutable.
 */
public record Slices(long[] nodes, long[] bytes) {

  /** The file-info key. */
  public static final byte[] KEY = "IAM_SLICES".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  public Slices {
    if (nodes.length != bytes.length) {
      throw new IllegalArgumentException("slices: " + nodes.length + " nodes, " + bytes.length + " sizes");
    }
    nodes = nodes.clone();
    bytes = bytes.clone();
  }

  /** The bytes of node {@code node}'s slice, 0 if the file holds none of its rows. */
  public long bytesOf(long node) {
    for (int i = 0; i < nodes.length; i++) {
      if (nodes[i] == node) {
        return bytes[i];
      }
    }
    return 0;
  }

  /** The {@link #KEY} value. */
  public byte[] encode() {
    ByteBuffer b = ByteBuffer.allocate(16 * nodes.length);
    for (int i = 0; i < nodes.length; i++) {
      b.putLong(nodes[i]).putLong(bytes[i]);
    }
    return b.array();
  }

  /** The slices a file records, or null if it records none (or a malformed value: not a shared file). */
  public static Slices decode(byte[] value) {
    if (value == null || value.length % 16 != 0) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(value);
    int n = value.length / 16;
    long[] nodes = new long[n];
    long[] bytes = new long[n];
    for (int i = 0; i < n; i++) {
      nodes[i] = b.getLong();
      bytes[i] = b.getLong();
      if (bytes[i] < 0) {
        return null;
      }
    }
    return new Slices(nodes, bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Slices s && Arrays.equals(s.nodes, nodes) && Arrays.equals(s.bytes, bytes);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(nodes) + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("slices");
    for (int i = 0; i < nodes.length; i++) {
      sb.append(' ').append('#').append(nodes[i]).append('=').append(bytes[i]);
    }
    return sb.toString();
  }
}
