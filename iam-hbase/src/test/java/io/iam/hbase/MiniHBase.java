package io.iam.hbase;

import io.iam.hbase.fs.NioLocalFileSystem;
import io.iam.hbase.master.IamConfigurationValidator;
import io.iam.hbase.metrics.StoreWriteObserver;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One HBase mini cluster (ZooKeeper, a master and three region servers on the local file system)
 * shared by every test class of the run: started by the first class that asks, stopped when the
 * whole run ends. Our validator and write observer are installed as an operator would install
 * them, through the site configuration. Files go through {@link NioLocalFileSystem}.
 */
public final class MiniHBase implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {

  /** Region servers the cluster runs; a test that kills one starts another. */
  public static final int REGION_SERVERS = 3;

  private static HBaseTestingUtility util;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    synchronized (MiniHBase.class) {
      if (util == null) {
        start();
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
            .put(MiniHBase.class.getName(), this);
      }
    }
  }

  /** The running cluster's testing utility. */
  public static HBaseTestingUtility util() {
    if (util == null) {
      throw new IllegalStateException("annotate the test class with @ExtendWith(MiniHBase.class)");
    }
    return util;
  }

  private static void start() throws Exception {
    File root = Files.createTempDirectory("iam-hbase-").toFile();
    HBaseTestingUtility u = new HBaseTestingUtility();
    Configuration conf = u.getConfiguration();
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.set("hbase.coprocessor.master.classes", IamConfigurationValidator.class.getName());
    conf.set("hbase.coprocessor.region.classes", StoreWriteObserver.class.getName());
    // No periodic major compactions: a test's compactions are the policy's.
    conf.setLong("hbase.hregion.majorcompaction", 0);
    conf.setInt("hbase.regionserver.thread.compaction.small", 1);
    conf.setLong("hbase.hregion.memstore.flush.size", 64L << 20);
    conf.set("fs.file.impl", NioLocalFileSystem.class.getName());
    u.startMiniZKCluster();
    conf.set("hbase.rootdir", new File(root, "hbase").toURI().toString());
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    u.startMiniHBaseCluster(StartMiniClusterOption.builder().numRegionServers(REGION_SERVERS).build());
    util = u;
  }

  @Override
  public void close() throws IOException {
    synchronized (MiniHBase.class) {
      if (util != null) {
        util.shutdownMiniCluster();
        util = null;
      }
    }
  }
}
