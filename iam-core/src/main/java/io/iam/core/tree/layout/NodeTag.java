package io.iam.core.tree.layout;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The node an HFile belongs to, written into the file's file-info block when the engine writes it
 * and read back whenever the store opens, so the tree survives reopen, restart and failover.
 *
 * <p>A node is identified by {@code node}; all files tagged with the same id form that node. The
 * node's level and inclusive row range {@code [lo, hi]} are those of its file with the largest
 * {@code epoch} (a per-store counter that grows with every write), so a newer file can move or
 * re-range a node without touching its older files. An empty {@code lo} / {@code hi} is an open
 * end (see {@link Rows}). {@code depth} is the tree's number of levels when the file was written.
 *
 * <p>Encoding: the keys {@link #NODE}, {@link #LEVEL}, {@link #LO}, {@link #HI}, {@link #EPOCH},
 * {@link #DEPTH}; longs as 8 and ints as 4 big-endian bytes, row ends as raw bytes.
 */
public record NodeTag(long node, int level, byte[] lo, byte[] hi, long epoch, int depth) {

  public static final byte[] NODE = key("IAM_NODE");
  public static final byte[] LEVEL = key("IAM_LEVEL");
  public static final byte[] LO = key("IAM_LO");
  public static final byte[] HI = key("IAM_HI");
  public static final byte[] EPOCH = key("IAM_EPOCH");
  public static final byte[] DEPTH = key("IAM_DEPTH");
  /**
   * The serialized bytes of the cells a file holds, written next to the tag: the size the tree
   * plans with, so a node's fill does not depend on block, index and trailer overhead.
   */
  public static final byte[] CELL_BYTES = key("IAM_CELL_BYTES");

  public NodeTag {
    if (node < 0 || level < 1 || depth < level || !Rows.atMost(lo, hi)) {
      throw new IllegalArgumentException("bad node tag: node " + node + " L" + level + " depth " + depth);
    }
  }

  /** The file-info entries of this tag, in a stable order. */
  public Map<byte[], byte[]> toFileInfo() {
    Map<byte[], byte[]> out = new LinkedHashMap<>();
    out.put(NODE, ByteBuffer.allocate(8).putLong(node).array());
    out.put(LEVEL, ByteBuffer.allocate(4).putInt(level).array());
    out.put(LO, lo.clone());
    out.put(HI, hi.clone());
    out.put(EPOCH, ByteBuffer.allocate(8).putLong(epoch).array());
    out.put(DEPTH, ByteBuffer.allocate(4).putInt(depth).array());
    return out;
  }

  /**
   * Reads a tag through {@code fileInfo} (key to value, null if absent). Empty when the file has
   * no tag; also empty when the entries are incomplete or malformed, so such a file is treated as
   * one the engine did not place.
   */
  public static Optional<NodeTag> read(Function<byte[], byte[]> fileInfo) {
    byte[] node = fileInfo.apply(NODE);
    byte[] level = fileInfo.apply(LEVEL);
    byte[] lo = fileInfo.apply(LO);
    byte[] hi = fileInfo.apply(HI);
    byte[] epoch = fileInfo.apply(EPOCH);
    byte[] depth = fileInfo.apply(DEPTH);
    if (node == null || node.length != 8 || level == null || level.length != 4 || lo == null || hi == null
        || epoch == null || epoch.length != 8 || depth == null || depth.length != 4) {
      return Optional.empty();
    }
    try {
      return Optional.of(new NodeTag(ByteBuffer.wrap(node).getLong(), ByteBuffer.wrap(level).getInt(), lo.clone(),
          hi.clone(), ByteBuffer.wrap(epoch).getLong(), ByteBuffer.wrap(depth).getInt()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The {@link #CELL_BYTES} value for {@code bytes}. */
  public static byte[] cellBytes(long bytes) {
    return ByteBuffer.allocate(8).putLong(bytes).array();
  }

  /** The cell bytes a file records through {@code fileInfo}, or -1 if it records none (or a bad value). */
  public static long readCellBytes(Function<byte[], byte[]> fileInfo) {
    byte[] v = fileInfo.apply(CELL_BYTES);
    return v == null || v.length != 8 ? -1 : Math.max(-1, ByteBuffer.wrap(v).getLong());
  }

  private static byte[] key(String name) {
    return name.getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NodeTag t && t.node == node && t.level == level && t.epoch == epoch && t.depth == depth
        && java.util.Arrays.equals(t.lo, lo) && java.util.Arrays.equals(t.hi, hi);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(node, level, epoch, depth, java.util.Arrays.hashCode(lo), java.util.Arrays.hashCode(hi));
  }

  @Override
  public String toString() {
    return "node " + node + " L" + level + " [" + show(lo) + ", " + show(hi) + "] epoch " + epoch + " depth " + depth;
  }

  /** A range end as text: {@code open} or the row as ISO-8859-1. */
  public static String show(byte[] end) {
    return end.length == 0 ? "open" : new String(end, StandardCharsets.ISO_8859_1);
  }
}
