package io.iam.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pure parts of {@code iam compare}: the order of the runs, their commands, the medians, the launcher. */
class ComparePlanTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static ComparePlan plan(int repeats, String policy, Map<String, String> options) {
    return new ComparePlan(List.of("iam", "leveled", "rocksdb"), List.of("load", "a", "g"), "iam",
        new ComparePlan.Budget(1000, 800, 20, 2, 65536, 1 << 20, policy, null, options), repeats);
  }

  @Test
  void workloadMajorEnginesAlternatingAndReversedOnEveryOtherRepeat() {
    List<String> order = new ArrayList<>();
    for (ComparePlan.Run r : plan(2, null, Map.of()).runs(e -> false)) {
      order.add(r.index() + ":" + r.repeat() + ":" + r.workload() + "/" + r.engine());
    }
    assertEquals(List.of(
        "1:1:load/iam", "2:1:load/leveled", "3:1:load/rocksdb",
        "4:1:a/iam", "5:1:a/leveled", "6:1:a/rocksdb",
        "7:1:g/iam", "8:1:g/leveled", "9:1:g/rocksdb",
        "10:2:load/rocksdb", "11:2:load/leveled", "12:2:load/iam",
        "13:2:a/rocksdb", "14:2:a/leveled", "15:2:a/iam",
        "16:2:g/rocksdb", "17:2:g/leveled", "18:2:g/iam"), order);
  }

  @Test
  void everyRunGetsTheSameBudgetsAndGItsOwnOperations() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("bloom-bits-per-key", "10");
    List<ComparePlan.Run> runs = plan(1, "binomial", options).runs(e -> e.equals("leveled"));
    assertEquals(List.of("ycsb", "--engine", "iam", "--workload", "load", "--records", "1000", "--operations", "800",
        "--threads", "2", "--memtable", "65536", "--cache", "1048576", "-o", "bloom-bits-per-key=10", "--json",
        "--no-progress"), runs.get(0).args());
    assertTrue(String.join(" ", runs.get(1).args()).contains("--policy binomial -o bloom-bits-per-key=10"),
        "the engine with a policy gets --policy: " + runs.get(1).args());
    assertTrue(String.join(" ", runs.get(7).args()).contains("--workload g --records 1000 --operations 20 "),
        runs.get(7).args().toString());
  }

  @Test
  void thePapersTestsAreLoadCommandsWithTheSameBudgets() {
    ComparePlan.Budget b = new ComparePlan.Budget(1000, 800, 20, 2, 65536, 1 << 20, "binomial", 4,
        Map.of("bloom-bits-per-key", "10"));
    ComparePlan p = new ComparePlan(List.of("iam", "hbase"), List.of("seqload", "seqread", "randload", "overwrite"), "iam", b, 1);
    List<ComparePlan.Run> runs = p.runs(e -> e.equals("hbase"));
    assertEquals(List.of("load", "--tree", "iam", "--records", "1000", "--memtable", "65536", "--cache", "1048576",
        "--order", "sequential", "-o", "bloom-bits-per-key=10", "--json", "--no-progress"), runs.get(0).args());
    assertEquals(List.of("load", "--tree", "hbase", "--records", "1000", "--memtable", "65536", "--cache", "1048576",
        "--order", "sequential", "-o", "policy=binomial", "-o", "max-components=4", "-o", "bloom-bits-per-key=10",
        "--json", "--no-progress"), runs.get(1).args());
    assertTrue(String.join(" ", runs.get(2).args()).contains(" --scans 3 --scan-length 1000 --read-distribution"
        + " first "), runs.get(2).args().toString());
    assertTrue(String.join(" ", runs.get(4).args()).contains(" --order random "), runs.get(4).args().toString());
    assertTrue(String.join(" ", runs.get(6).args()).contains(" --overwrites 1000 "), runs.get(6).args().toString());
  }

  @Test
  void mediansSpreadAndNormalizedThroughput() throws Exception {
    ComparePlan plan = new ComparePlan(List.of("iam", "rocksdb"), List.of("a"), "rocksdb",
        new ComparePlan.Budget(10, 10, 1, 1, 1024, 1024, null, null, Map.of()), 3);
    List<ComparePlan.Run> runs = plan.runs(e -> false);
    double[] iam = {100, 300, 200};
    double[] rocks = {400, 500, 600};
    List<CompareSummary.Result> results = new ArrayList<>();
    for (ComparePlan.Run r : runs) {
      double ops = (r.engine().equals("iam") ? iam : rocks)[r.repeat() - 1];
      JsonNode json = JSON.readTree("{\"opsPerSecond\":" + ops + ",\"writeAmplification\":" + ops / 100
          + ",\"diskBytes\":1048576,\"levels\":[{\"writeAmplification\":1.0},{\"writeAmplification\":" + ops / 100
          + "}],\"latencyMicros\":{\"read\":{\"p50\":" + ops + ",\"p95\":1,\"p99\":2,\"p999\":3}}}");
      boolean fail = r.engine().equals("rocksdb") && r.repeat() == 3;
      results.add(new CompareSummary.Result(r, new ChildLauncher.Outcome(fail ? 1 : 0, 5, fail ? null : json,
          fail ? "boom" : null)));
    }
    CompareSummary s = new CompareSummary(plan, results);
    CompareSummary.Cell i = s.cell("a", "iam");
    assertEquals(200, i.opsPerSecond().median());
    assertEquals(1.0, i.opsPerSecond().spread(), "(300 - 100) / 200");
    assertEquals(List.of(1.0, 2.0), i.levels());
    assertEquals(200.0, i.latency().get("read").get("p50"));
    CompareSummary.Cell r = s.cell("a", "rocksdb");
    assertEquals(2, r.runs());
    assertEquals(List.of("run 6: exit code 1: boom"), r.failures(), "repeat 3 runs rocksdb first: run 5 is iam");
    assertEquals(450, r.opsPerSecond().median(), "the mean of the middle two of an even count");
    assertEquals(1.0, r.normalized(), 0.0);
    assertEquals(200.0 / 450, i.normalized());
  }

  @Test
  void chartsOfAGridThatDoesNotFillItsLastRow(@TempDir Path dir) throws Exception {
    List<String> workloads = List.of("load", "a", "b", "c", "e");
    ComparePlan plan = new ComparePlan(List.of("iam", "rocksdb"), workloads, "iam",
        new ComparePlan.Budget(10, 10, 1, 1, 1024, 1024, null, null, Map.of()), 1);
    List<CompareSummary.Result> results = new ArrayList<>();
    for (ComparePlan.Run r : plan.runs(e -> false)) {
      JsonNode json = JSON.readTree("{\"opsPerSecond\":" + (100 + r.index()) + ",\"writeAmplification\":2.5,"
          + "\"diskBytes\":2097152,\"levels\":[{\"writeAmplification\":1.0},{\"writeAmplification\":1.5}],"
          + "\"latencyMicros\":{\"read\":{\"p50\":5,\"p95\":9,\"p99\":20,\"p999\":400}}}");
      boolean fail = r.workload().equals("e") && r.engine().equals("iam");
      results.add(new CompareSummary.Result(r, new ChildLauncher.Outcome(fail ? 1 : 0, 5, fail ? null : json, "x")));
    }
    List<Path> files = CompareCharts.write(dir, new CompareSummary(plan, results));

    assertEquals(4, files.size());
    BufferedImage wa = ImageIO.read(dir.resolve(CompareCharts.WRITE_AMPLIFICATION).toFile());
    assertEquals(2, wa.getHeight() / 340, "five workloads in rows of four: two rows");
    assertEquals(4 * 460, wa.getWidth());
    for (Path f : files) {
      assertTrue(ImageIO.read(f.toFile()).getWidth() > 0, f.toString());
    }
  }

  @Test
  void theScriptWhenItIsSetElseThisJavaWithThisClassPath() {
    ChildLauncher script = ChildLauncher.of(Map.of("IAM_SCRIPT", "/opt/iam/iam"), "/jdk", "a.jar:b.jar");
    assertEquals(List.of("/opt/iam/iam"), script.prefix());
    assertTrue(script.script());
    ChildLauncher java = ChildLauncher.of(Map.of(), "/jdk", "a.jar:b.jar");
    assertEquals(List.of("/jdk/bin/java", "-cp", "a.jar:b.jar", "io.iam.bench.cli.IamCommand"), java.prefix());
    assertFalse(java.script());
  }

  @Test
  void aLauncherThatCannotStartFailsTheRun() throws Exception {
    ChildLauncher gone = ChildLauncher.of(Map.of("IAM_SCRIPT", "/no/such/dir/iam"), "/jdk", "");
    StringWriter err = new StringWriter();
    ChildLauncher.Outcome o = gone.run(List.of("ycsb", "--help"), new PrintWriter(err), "[x] ");
    assertTrue(o.failed());
    assertEquals(ChildLauncher.CANNOT_START, o.exitCode());
    assertTrue(o.why().startsWith("exit code -1: cannot start /no/such/dir/iam: "), o.why());
  }

  @Test
  void markdownAndHtmlHoldTheSameTable() {
    ReportDoc d = new ReportDoc().heading(2, "T <1>").paragraph("run `iam a|b` **now**").table(new ReportDoc.Table(
        List.of("name", "n"), List.of(false, true), List.of(List.of("x|y", "1,234"))));
    assertEquals("## T <1>\n\nrun `iam a|b` **now**\n\n| name | n |\n| --- | ---: |\n| x\\|y | 1,234 |\n\n",
        d.markdown());
    String html = d.html("t");
    assertTrue(html.contains("<h2>T &lt;1&gt;</h2>"), html);
    assertTrue(html.contains("<p>run <code>iam a|b</code> <strong>now</strong></p>"), html);
    assertTrue(html.contains("<tr><td>x|y</td><td class=\"n\">1,234</td></tr>"), html);
  }
}
