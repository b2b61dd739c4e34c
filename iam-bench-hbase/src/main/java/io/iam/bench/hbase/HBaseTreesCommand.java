package io.iam.bench.hbase;

import static io.iam.bench.util.Sizes.human;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code iam hbase-trees}: the IAM trees of a running HBase cluster's stores, as each region
 * server's {@code io.iam:type=IamStoreEngine,name=Stores} MBean shows them over its info server's
 * {@code /jmx}. Reads only: it writes nothing to the cluster.
 */
@Command(
    name = "hbase-trees",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Prints the IAM tree of every store that runs IAM's store engine on a running HBase cluster, as"
          + " each live region server's JMX shows it (http://<server>:<info port>/jmx): tree kind, the"
          + " mixed level m and sequence cap k it plans with, depth, and per level its nodes, HFiles,"
          + " bytes and bytes written since the store opened; then the HFiles outside the tree, whether"
          + " a step is due, level 1's pressure and how long memstore flushes waited for the tree.",
      ""
    })
public final class HBaseTreesCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--zookeeper", required = true, paramLabel = "HOST:PORT[,HOST:PORT...]",
      description = "The cluster's ZooKeeper quorum.")
  String zookeeper;

  @Option(names = "--table", paramLabel = "NAME", description = "Only this table's stores (default: all).")
  String table;

  @Option(names = "--json", description = "Print one JSON object: the stores (the MBean's rows, each with its"
      + " server) and the servers that could not be read.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set(HConstants.ZOOKEEPER_QUORUM, zookeeper);
    conf.setInt("hbase.client.retries.number", 3);
    List<String> problems = new ArrayList<>();
    List<RegionServerJmx.TreeRow> rows = new ArrayList<>();
    try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
      for (RegionServerJmx.TreeRow row : RegionServerJmx.trees(admin, problems)) {
        if (table == null || row.store().startsWith(table + "/")) {
          rows.add(row);
        }
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectMapper mapper = new ObjectMapper();
      ObjectNode root = mapper.createObjectNode();
      ArrayNode stores = root.putArray("stores");
      for (RegionServerJmx.TreeRow row : rows) {
        ObjectNode s = stores.addObject();
        s.put("server", row.server().host() + ":" + row.server().port());
        s.setAll((ObjectNode) row.tree());
      }
      ArrayNode bad = root.putArray("problems");
      problems.forEach(bad::add);
      out.println(mapper.writeValueAsString(root));
    } else {
      for (RegionServerJmx.TreeRow row : rows) {
        out.print(describe(row));
      }
      for (String p : problems) {
        out.println("not read: " + p);
      }
    }
    out.flush();
    if (rows.isEmpty()) {
      spec.commandLine().getErr().println("iam hbase-trees: no store " + (table == null ? "" : "of table '" + table + "' ")
          + "runs IAM's store engine on the cluster's live region servers");
      return 1;
    }
    return 0;
  }

  /** One store: a line of the tree as a whole, then a line per level. */
  static String describe(RegionServerJmx.TreeRow row) {
    JsonNode t = row.tree();
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT,
        "%s on %s:%d: tree %s, mixed level m %d, cap k %d, depth %d, %,d HFiles (%,d outside the tree),"
            + " step due %s, flushes waiting %s, level-1 pressure %.2f, flushes waited for the tree %.1f s%n",
        row.store(), row.server().host(), row.server().port(), t.path("tree").asText(), t.path("mixedLevel").asInt(),
        t.path("sequenceCap").asInt(), t.path("depth").asInt(), t.path("hfiles").asInt(),
        t.path("unplacedFiles").asInt(), yesNo(t.path("pendingWork")), yesNo(t.path("flushesWaiting")),
        t.path("levelOnePressure").asDouble(), t.path("flushWaitMillis").asLong() / 1000.0));
    b.append(String.format(Locale.ROOT, "  %-5s %6s %7s %12s %12s%n", "level", "nodes", "HFiles", "size", "written"));
    JsonNode written = t.path("bytesWrittenPerLevel");
    for (int i = 0; i < t.path("depth").asInt(); i++) {
      b.append(String.format(Locale.ROOT, "  L%-4d %6d %7d %12s %12s%n", i + 1, t.path("nodesPerLevel").path(i).asInt(),
          t.path("hfilesPerLevel").path(i).asInt(), human(t.path("bytesPerLevel").path(i).asLong()),
          human(written.path(i + 1).asLong())));
    }
    if (written.path(0).asLong() > 0) {
      b.append(String.format(Locale.ROOT, "  outside the tree (references, bulk loads): written %s%n",
          human(written.path(0).asLong())));
    }
    return b.toString();
  }

  private static String yesNo(JsonNode flag) {
    return flag.asBoolean() ? "yes" : "no";
  }
}
