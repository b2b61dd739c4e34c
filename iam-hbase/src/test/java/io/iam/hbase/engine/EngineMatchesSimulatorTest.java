package io.iam.hbase.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.tree.layout.LayoutSimulator;
import io.iam.core.tree.layout.NodeTag;
import io.iam.core.tree.layout.Sequence;
import io.iam.core.tree.layout.TreeLayout;
import io.iam.hbase.MiniHBase;
import io.iam.hbase.StoreProbe;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The store engine makes iam-core's decisions: the same memstore flushes go into a real HBase
 * store and into iam-core's {@link LayoutSimulator} built from the same settings, and after every
 * flush (and the compactions it triggers) both trees are equal: node ids, levels, ranges, epochs,
 * and every sequence's rows and cell bytes. Any difference in how the engine cuts a flush, plans,
 * routes rows, tags files or rebuilds its tree from the tags shows up as the first flush after
 * which the two differ. The engine runs one step at a time here ({@code max-running-steps=1}): side
 * by side, which step HBase selects next depends on when its compaction checker runs.
 */
@ExtendWith(MiniHBase.class)
class EngineMatchesSimulatorTest {

  private static final int ROWS_PER_FLUSH = 32;
  private static final int FLUSHES = 24;

  @ParameterizedTest
  @ValueSource(strings = {"iam", "lsa", "lsm-merge"})
  void everyFlushLeavesTheSimulatorsTree(String tree) throws Exception {
    // cache-size fixes M, so m and k do not depend on the mini cluster's block cache; one step at a
    // time, as the simulator runs them (beside a running step the planner may pick another order).
    Map<String, String> options = Map.of("tree", tree, "fanout", "3", "node-capacity", "96KiB",
        "cache-size", "160KiB", "max-running-steps", "1");
    TableName table = TableName.valueOf("iam_vs_sim_" + tree.replace('-', '_'));
    EngineProbe.createTable(table, options, Map.of());
    StoreProbe probe = new StoreProbe(table);
    Map<String, String> properties = new HashMap<>();
    options.forEach((k, v) -> properties.put(EngineSettings.PREFIX + k, v));
    EngineSettings settings = EngineSettings.parse(properties.entrySet());
    LayoutSimulator simulator = new LayoutSimulator(() -> settings.planner(0));

    for (int f = 1; f <= FLUSHES; f++) {
      List<LayoutSimulator.Row> rows = new ArrayList<>();
      for (String key : probe.writeNewRows(ROWS_PER_FLUSH)) {
        rows.add(new LayoutSimulator.Row(Bytes.toBytes(key), StoreProbe.cellBytes(key)));
      }
      probe.flushAndSettle();
      List<String> steps = simulator.flush(rows);
      TreeLayout<?> engine = EngineProbe.layout(probe.store());
      assertEquals(describe(simulator.layout()), describe(engine),
          "tree " + tree + " after flush " + f + " (the simulator ran " + steps + ")");
    }
    TreeLayout<?> last = simulator.layout();
    assertTrue(last.depth() >= 2, "several levels formed:\n" + last);
    assertTrue(simulator.steps().size() >= FLUSHES / 2, "steps: " + simulator.steps());
    probe.verifyAllRows();
  }

  /** Every node with its id, level, range, epoch and each sequence's rows and bytes, in order. */
  private static List<String> describe(TreeLayout<?> layout) {
    List<String> out = new ArrayList<>();
    out.add("depth " + layout.depth() + ", unplaced " + layout.unplaced().size());
    for (int i = 1; i <= layout.depth(); i++) {
      for (TreeLayout.NodeView<?> n : layout.level(i)) {
        StringBuilder s = new StringBuilder("L" + i + " #" + n.id() + " [" + NodeTag.show(n.lo()) + ", "
            + NodeTag.show(n.hi()) + "] epoch " + n.epoch() + ":");
        for (Sequence<?> q : n.files()) {
          s.append(q.isMarker() ? " marker@" + q.tag().epoch()
              : " [" + NodeTag.show(q.first()) + ".." + NodeTag.show(q.last()) + " " + q.bytes() + "B@"
                  + q.tag().epoch() + "]");
        }
        out.add(s.toString());
      }
    }
    return out;
  }
}
