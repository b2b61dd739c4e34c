package io.iam.bench.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.bench.cli.JmhComparison.Row;
import io.iam.bench.cli.JmhComparison.Verdict;
import io.iam.bench.cli.JmhResults.Score;
import io.iam.bench.util.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code iam jmh-compare}: a JMH run against a baseline, with regressions flagged. */
@Command(
    name = "jmh-compare",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Compares a JMH run with a baseline, both written by JMH with -rf json. For each benchmark and"
          + " parameter combination it prints the baseline score, the new score and their ratio (new /"
          + " baseline), and flags a regression when the new score is worse by more than the threshold:"
          + " lower for throughput (thrpt), higher for the time modes (avgt, sample, ss).",
      "Exit code: 0 without regressions, 1 with at least one, 2 for a missing or malformed file.",
      "The committed baseline is iam-bench/src/main/resources/jmh/baseline.json (see docs/benchmarks.md).",
      ""
    })
public final class JmhCompareCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--baseline", required = true, paramLabel = "FILE", description = "The baseline's JMH JSON.")
  Path baseline;

  @Option(names = "--run", required = true, paramLabel = "FILE", description = "The new run's JMH JSON.")
  Path run;

  @Option(names = "--threshold", paramLabel = "PERCENT", defaultValue = "10%",
      description = "The change tolerated before a score counts as a regression or an improvement, as 10%% or"
          + " 10 (default: 10%%).")
  String threshold;

  @Option(names = "--json", description = "Print one line of JSON instead of the table.")
  boolean json;

  @Override
  public Integer call() {
    double t = parseThreshold(threshold);
    List<Row> rows;
    try {
      rows = JmhComparison.compare(JmhResults.read(baseline), JmhResults.read(run), t);
    } catch (JmhResults.BadResultsException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    long regressions = JmhComparison.regressions(rows);
    if (json) {
      out.println(Json.line(toJson(rows, t, regressions)));
    } else {
      printTable(out, rows, t, regressions);
    }
    out.flush();
    return regressions > 0 ? 1 : 0;
  }

  private double parseThreshold(String text) {
    String number = text.endsWith("%") ? text.substring(0, text.length() - 1) : text;
    double percent;
    try {
      percent = Double.parseDouble(number.strip());
    } catch (NumberFormatException e) {
      percent = Double.NaN;
    }
    if (!(percent >= 0) || Double.isInfinite(percent)) {
      throw new ParameterException(spec.commandLine(),
          "--threshold must be a percentage of at least 0, such as 10%, not '" + text + "'");
    }
    return percent / 100;
  }

  private ObjectNode toJson(List<Row> rows, double t, long regressions) {
    ObjectNode o = Json.object();
    o.put("baseline", baseline.toString());
    o.put("run", run.toString());
    o.put("threshold", t);
    Json.array(o, "results", rows, (r, row) -> {
      r.put("benchmark", row.key().benchmark());
      r.put("mode", row.key().mode());
      ObjectNode params = r.putObject("params");
      row.key().params().forEach(params::put);
      Score any = row.baseline() != null ? row.baseline() : row.run();
      r.put("unit", any.unit());
      if (row.baseline() != null) {
        r.put("baseline", row.baseline().score());
      } else {
        r.putNull("baseline");
      }
      if (row.run() != null) {
        r.put("score", row.run().score());
      } else {
        r.putNull("score");
      }
      Json.putFinite(r, "ratio", row.ratio());
      r.put("verdict", row.verdict().name().toLowerCase(Locale.ROOT));
    });
    o.put("regressions", regressions);
    return o;
  }

  private void printTable(PrintWriter out, List<Row> rows, double t, long regressions) {
    List<String[]> lines = new ArrayList<>();
    lines.add(new String[] {"benchmark", "params", "mode", "unit", "baseline", "run", "ratio", ""});
    for (Row row : rows) {
      Score any = row.baseline() != null ? row.baseline() : row.run();
      lines.add(new String[] {
        row.key().shortName(), row.key().paramsText(), row.key().mode(), any.unit(), score(row.baseline()),
        score(row.run()), Double.isFinite(row.ratio()) ? String.format(Locale.ROOT, "%.3f", row.ratio()) : "-",
        row.verdict() == Verdict.SAME ? "" : row.verdict().text
      });
    }
    int[] width = new int[7];
    for (String[] line : lines) {
      for (int i = 0; i < width.length; i++) {
        width[i] = Math.max(width[i], line[i].length());
      }
    }
    for (String[] line : lines) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < width.length; i++) {
        String format = i < 4 ? "%-" + width[i] + "s  " : "%" + width[i] + "s  ";
        sb.append(String.format(format, line[i]));
      }
      out.println(sb.append(line[7]).toString().stripTrailing());
    }
    out.printf(Locale.ROOT, "%d of %d compared, %d regression%s beyond %s%n",
        rows.stream().filter(r -> r.baseline() != null && r.run() != null).count(), rows.size(), regressions,
        regressions == 1 ? "" : "s", percent(t));
  }

  private static String score(Score s) {
    if (s == null) {
      return "-";
    }
    return Math.abs(s.score()) >= 100 ? String.format(Locale.ROOT, "%,.0f", s.score())
        : String.format(Locale.ROOT, "%.3f", s.score());
  }

  private static String percent(double t) {
    return String.format(Locale.ROOT, "%s%%", new java.math.BigDecimal(Double.toString(t * 100)).stripTrailingZeros()
        .toPlainString());
  }
}
