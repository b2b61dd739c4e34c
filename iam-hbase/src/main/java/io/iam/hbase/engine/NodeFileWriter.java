package io.iam.hbase.engine;

import io.iam.core.tree.layout.NodePlan;
import io.iam.core.tree.layout.NodeRouter;
import io.iam.core.tree.layout.NodeTag;
import io.iam.core.tree.layout.Slices;
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
 * Writes a flush or a compaction as one HFile per output of iam-core's {@link NodeRouter}, which
 * decides where each row goes, where a merge-and-cut starts a new file and which markers are
 * written. Before each file is closed its {@link NodeTag} and its cell bytes ({@link
 * NodeTag#CELL_BYTES}) are appended to its file info, and for a shared flush file its {@link
 * Slices}. Not thread-safe (one flush or compaction).
 */
final class NodeFileWriter extends AbstractMultiFileWriter {

  private final NodeRouter<StoreFileWriter> router;
  private final Map<StoreFileWriter, NodeRouter.Output<StoreFileWriter>> byWriter = new IdentityHashMap<>();
  private NodeRouter.Output<StoreFileWriter> open;
  private byte[] lastRow;

  /** A writer for {@code plan}: one shared file if it is a shared flush ({@link NodePlan#shared()}). */
  NodeFileWriter(NodePlan<?> plan, LongSupplier stamps) {
    this.router = new NodeRouter<>(plan, stamps, (target, piece) -> writerFactory.createWriter());
  }

  @Override
  public void append(Cell cell) throws IOException {
    if (lastRow == null || !CellUtil.matchingRows(cell, lastRow)) {
      lastRow = CellUtil.cloneRow(cell);
      NodeRouter.Output<StoreFileWriter> now = router.startRow(lastRow);
      if (now != open) {
        byWriter.put(now.writer(), now);
        open = now;
      }
    }
    open.writer().append(cell);
    router.addCell(cell.getSerializedSize());
  }

  @Override
  protected java.util.Collection<StoreFileWriter> writers() {
    List<StoreFileWriter> out = new ArrayList<>();
    for (NodeRouter.Output<StoreFileWriter> o : router.outputs()) {
      out.add(o.writer());
    }
    return out;
  }

  @Override
  protected void preCommitWriters() throws IOException {
    for (NodeRouter.Output<StoreFileWriter> o : router.commit()) {
      byWriter.putIfAbsent(o.writer(), o);
    }
  }

  @Override
  protected void preCloseWriter(StoreFileWriter writer) throws IOException {
    NodeRouter.Output<StoreFileWriter> o = byWriter.get(writer);
    NodeTag tag = router.tagOf(o);
    if (tag == null) {
      return;
    }
    for (Map.Entry<byte[], byte[]> e : tag.toFileInfo().entrySet()) {
      writer.appendFileInfo(e.getKey(), e.getValue());
    }
    writer.appendFileInfo(NodeTag.CELL_BYTES, NodeTag.cellBytes(o.bytes()));
    Slices slices = router.slicesOf(o);
    if (slices != null) {
      writer.appendFileInfo(Slices.KEY, slices.encode());
    }
  }
}
