package io.iam.hbase.engine;

import io.iam.core.tree.layout.NodePlan;
import java.io.IOException;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.compactions.AbstractMultiOutputCompactor;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequestImpl;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.hadoop.hbase.security.User;

/**
 * Runs one tree step: reads the request's files through HBase's compaction scanner (which keeps
 * the newest versions and, unless every file of the store is read, every delete marker) and writes
 * one HFile per target with {@link NodeFileWriter}. The new files name the files they replace, so
 * a region server that dies between writing them and removing the old ones reopens without
 * reading both.
 */
public final class IamCompactor extends AbstractMultiOutputCompactor<NodeFileWriter> {

  public IamCompactor(Configuration conf, HStore store) {
    super(conf, store);
  }

  /** Compacts {@code request}'s files into the nodes {@code plan} writes. */
  public List<Path> compact(CompactionRequestImpl request, NodePlan<?> plan, LongSupplier stamps,
      ThroughputController throughputController, User user) throws IOException {
    return compact(request, defaultScannerFactory, (scanner, fd, dropBehind, major, tracker) -> {
      NodeFileWriter writer = new NodeFileWriter(plan, stamps);
      initMultiWriter(writer, scanner, fd, dropBehind, major, tracker);
      return writer;
    }, throughputController, user);
  }

  @Override
  protected List<Path> commitWriter(NodeFileWriter writer, FileDetails fd, CompactionRequestImpl request)
      throws IOException {
    return writer.commitWriters(fd.maxSeqId, request.isMajor(), request.getFiles());
  }
}
