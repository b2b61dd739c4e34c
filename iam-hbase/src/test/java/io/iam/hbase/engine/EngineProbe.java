package io.iam.hbase.engine;

import io.iam.core.tree.layout.NodeTag;
import io.iam.core.tree.layout.Rows;
import io.iam.core.tree.layout.Sequence;
import io.iam.core.tree.layout.TreeLayout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.hbase.MiniHBase;
import io.iam.hbase.StoreProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreEngine;

/** Test helpers for the IAM store engine: tables that use it, and checks on the tree it keeps. */
final class EngineProbe {

  private EngineProbe() {}

  /**
   * Creates {@code name} with the engine on column family {@code f}, configured by {@code
   * engineOptions} (keys without the {@code iam.engine.} prefix) and any {@code extra} properties.
   */
  static void createTable(TableName name, Map<String, String> engineOptions, Map<String, String> extra,
      String... coprocessors) throws Exception {
    ColumnFamilyDescriptorBuilder family = ColumnFamilyDescriptorBuilder.newBuilder(StoreProbe.FAMILY)
        .setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, IamStoreEngine.class.getName());
    engineOptions.forEach((k, v) -> family.setConfiguration(EngineSettings.PREFIX + k, v));
    extra.forEach(family::setConfiguration);
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(name).setColumnFamily(family.build());
    for (String c : coprocessors) {
      table.setCoprocessor(c);
    }
    MiniHBase.util().getAdmin().createTable(table.build());
    MiniHBase.util().waitTableAvailable(name);
  }

  static IamStoreEngine engine(HStore store) {
    return assertInstanceOf(IamStoreEngine.class, store.getStoreEngine());
  }

  static TreeLayout<HStoreFile> layout(HStore store) {
    return ((IamStoreFileManager) engine(store).getStoreFileManager()).layout();
  }

  /** The tree as text that names every node, its range and its files: equal trees, equal text. */
  static List<String> signature(TreeLayout<HStoreFile> layout) {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= layout.depth(); i++) {
      for (TreeLayout.NodeView<HStoreFile> n : layout.level(i)) {
        List<String> files = new ArrayList<>();
        n.files().forEach(s -> files.add(s.file().getPath().getName()));
        files.sort(null);
        out.add("L" + i + " #" + n.id() + " [" + NodeTag.show(n.lo()) + ", " + NodeTag.show(n.hi()) + "] " + files);
      }
    }
    return out;
  }

  /**
   * Checks a settled tree: every file is placed in a node or shared by level 1, every node file's
   * rows lie inside its node's range, and a shared file's slices hold all its bytes.
   */
  static void assertSound(HStore store) {
    TreeLayout<HStoreFile> layout = layout(store);
    assertEquals(List.of(), layout.unplaced(), "unplaced files of a settled tree");
    int placed = 0;
    for (int i = 1; i <= layout.depth(); i++) {
      for (TreeLayout.NodeView<HStoreFile> n : layout.level(i)) {
        placed += n.files().size();
        for (Sequence<HStoreFile> s : n.dataFiles()) {
          assertTrue(Rows.atMost(n.lo(), s.first()) && Rows.atMost(s.last(), n.hi()),
              "file " + s.file().getPath().getName() + " rows [" + NodeTag.show(s.first()) + ", "
                  + NodeTag.show(s.last()) + "] inside node " + n.id() + " of L" + i + "\n" + layout);
        }
      }
    }
    for (Sequence<HStoreFile> s : layout.shared()) {
      placed++;
      assertEquals(s.bytes(), java.util.Arrays.stream(s.slices().bytes()).sum(),
          "shared file " + s.file().getPath().getName() + ": its slices hold all its cell bytes");
    }
    assertEquals(store.getStorefiles().size(), placed, "files in nodes or shared by level 1 vs the store's files");
  }
}
