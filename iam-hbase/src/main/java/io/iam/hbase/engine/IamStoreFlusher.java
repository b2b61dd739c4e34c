package io.iam.hbase.engine;

import io.iam.core.tree.layout.NodePlan;
import io.iam.core.tree.layout.TreePlanner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.monitoring.MonitoredTask;
import org.apache.hadoop.hbase.regionserver.FlushLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.IamStoreFlusherBase;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.MemStoreSnapshot;
import org.apache.hadoop.hbase.regionserver.StoreScanner;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a memstore snapshot into level 1 as {@link TreePlanner#flushRoute} cuts it: once level 1
 * is internal, one HFile shared by level 1's nodes, recording each node's slice; before that, one
 * HFile per level-1 node that receives rows, each tagged with its node (a new node if level 1 is
 * empty).
 * Whatever the kernel would have merged instead of appended is merged by the next compaction.
 *
 * <p>While a level-1 node is at the hard limit and the tree has a step to run, a flush first waits
 * for that step, at most {@link #MAX_WAIT_NANOS}, then writes anyway; HBase holds flushes back
 * itself only if a level-1 node grows to 3 × C_t (see {@link IamStoreFileManager}).
 */
public final class IamStoreFlusher extends IamStoreFlusherBase {

  private static final Logger LOG = LoggerFactory.getLogger(IamStoreFlusher.class);
  /**
   * The longest a flush waits for the tree ({@link IamStoreFileManager#awaitRoomForFlush}): short
   * enough that the writes a region refuses meanwhile (its memstore is at 4 × the flush size) are
   * taken by the client's third retry, 600 ms after the first try.
   */
  static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(400);

  private final Supplier<TreePlanner> planner;
  private final IamStoreFileManager files;

  public IamStoreFlusher(Configuration conf, HStore store, Supplier<TreePlanner> planner, IamStoreFileManager files) {
    super(conf, store);
    this.planner = planner;
    this.files = files;
  }

  @Override
  public List<Path> flushSnapshot(MemStoreSnapshot snapshot, long cacheFlushSeqNum, MonitoredTask status,
      ThroughputController throughputController, FlushLifeCycleTracker tracker, Consumer<Path> writerCreationTracker)
      throws IOException {
    if (snapshot.getCellsCount() == 0) {
      return new ArrayList<>();
    }
    InternalScanner scanner = createScanner(snapshot.getScanners(), tracker);
    if (scanner == null) {
      return new ArrayList<>(); // a coprocessor cancelled the flush
    }
    files.awaitRoomForFlush(MAX_WAIT_NANOS);
    NodePlan<?> route = planner.get().flushRoute(files.layout());
    NodeFileWriter writer = new NodeFileWriter(route, files::nextStamp);
    boolean done = false;
    try {
      writer.init(scanner instanceof StoreScanner s ? s : null,
          () -> createWriter(snapshot, true, writerCreationTracker));
      performFlush(scanner, writer, throughputController);
      List<Path> paths = writer.commitWriters(cacheFlushSeqNum, false);
      done = true;
      return paths;
    } finally {
      if (!done) {
        for (Path p : writer.abortWriters()) {
          try {
            store.getFileSystem().delete(p, false);
          } catch (IOException e) {
            LOG.warn("cannot delete {} after a failed flush", p, e);
          }
        }
      }
      try {
        scanner.close();
      } catch (IOException e) {
        LOG.warn("cannot close the flush scanner", e);
      }
    }
  }
}
