package io.iam.hbase.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.regionserver.AbstractMultiFileWriter;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;

/**
 * Writes a flush or a compaction as one HFile per {@link Target}: each cell goes to the target
 * whose row interval holds its row (cells arrive in order, so the target only moves forward), a
 * cut target starts a new file at a row boundary once the current one holds its cut size, and a
 * target that must persist without rows gets a file without cells. Before each file is closed its
 * {@link NodeTag} is appended: a new node draws its id, and all files of one commit share one
 * fresh epoch, both from {@code stamps}. Not thread-safe (one flush or compaction).
 */
final class NodeFileWriter extends AbstractMultiFileWriter {

  /** One file being written for a target. */
  private static final class Output {
    final Target target;
    final StoreFileWriter writer;
    final int piece;
    byte[] first;
    byte[] last;
    long bytes;
    boolean lastPiece = true;

    Output(Target target, StoreFileWriter writer, int piece) {
      this.target = target;
      this.writer = writer;
      this.piece = piece;
    }
  }

  private final List<Target> routed = new ArrayList<>();
  private final List<Target> markers = new ArrayList<>();
  private final int depth;
  private final LongSupplier stamps;
  private final List<Output> outputs = new ArrayList<>();
  private final Map<StoreFileWriter, Output> byWriter = new IdentityHashMap<>();
  private int current;
  private Output open;
  private byte[] lastRow;
  private long epoch;

  /**
   * @param targets the plan's targets: those that receive rows sorted and together covering every
   *     row, markers anywhere
   */
  NodeFileWriter(List<Target> targets, int depth, LongSupplier stamps) {
    for (Target t : targets) {
      (t.markerOnly() ? markers : routed).add(t);
    }
    this.depth = depth;
    this.stamps = stamps;
  }

  @Override
  public void append(Cell cell) throws IOException {
    if (lastRow == null || !CellUtil.matchingRows(cell, lastRow)) {
      byte[] row = CellUtil.cloneRow(cell);
      int t = targetOf(row);
      boolean cutNow = open != null && open.target.cutBytes() > 0 && open.bytes >= open.target.cutBytes();
      if (open == null || t != current || cutNow) {
        int piece = open != null && t == current ? open.piece + 1 : 0;
        if (piece > 0) {
          open.lastPiece = false;
        }
        open = start(routed.get(t), piece);
        current = t;
      }
      if (open.first == null) {
        open.first = row;
      }
      open.last = row;
      lastRow = row;
    }
    open.writer.append(cell);
    open.bytes += cell.getSerializedSize();
  }

  private int targetOf(byte[] row) {
    for (int t = open == null ? 0 : current; t < routed.size(); t++) {
      if (routed.get(t).routes(row)) {
        return t;
      }
    }
    throw new IllegalStateException("no target takes row " + NodeTag.show(row) + ": targets " + routed);
  }

  private Output start(Target target, int piece) throws IOException {
    StoreFileWriter w = writerFactory.createWriter();
    Output o = new Output(target, w, piece);
    outputs.add(o);
    byWriter.put(w, o);
    return o;
  }

  @Override
  protected java.util.Collection<StoreFileWriter> writers() {
    List<StoreFileWriter> out = new ArrayList<>();
    for (Output o : outputs) {
      out.add(o.writer);
    }
    return out;
  }

  @Override
  protected void preCommitWriters() throws IOException {
    epoch = stamps.getAsLong();
    for (Target t : routed) {
      if (t.keepIfEmpty() && outputs.stream().noneMatch(o -> o.target == t)) {
        start(t, 0);
      }
    }
    for (Target t : markers) {
      start(t, 0);
    }
  }

  @Override
  protected void preCloseWriter(StoreFileWriter writer) throws IOException {
    Output o = byWriter.get(writer);
    if (o.target.node() == Target.UNPLACED) {
      return;
    }
    for (Map.Entry<byte[], byte[]> e : tagOf(o).toFileInfo().entrySet()) {
      writer.appendFileInfo(e.getKey(), e.getValue());
    }
  }

  /** The tag of an output: its node, level, and range widened to the rows it holds. */
  private NodeTag tagOf(Output o) {
    Target t = o.target;
    long node = t.node() == Target.NEW ? stamps.getAsLong() : t.node();
    byte[] lo = t.lo();
    byte[] hi = t.hi();
    if (o.first != null) {
      lo = lo == null || o.piece > 0 ? o.first : Rows.minLo(lo, o.first);
      hi = hi == null || !o.lastPiece ? o.last : Rows.maxHi(hi, o.last);
    }
    if (lo == null || hi == null) {
      throw new IllegalStateException("a new node without rows has no range: " + t);
    }
    return new NodeTag(node, t.level(), lo, hi, epoch, Math.max(depth, t.level()));
  }
}
