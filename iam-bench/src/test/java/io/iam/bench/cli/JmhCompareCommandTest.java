package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code iam jmh-compare} on small hand-written JMH result files. */
class JmhCompareCommandTest {

  @TempDir Path dir;

  /** One JMH result object, as {@code -rf json} writes it (only the fields the command reads, plus one more). */
  private static String result(String benchmark, String mode, String params, double score, String unit) {
    return String.format(Locale.ROOT, """
        {"jmhVersion": "1.37", "benchmark": "io.iam.bench.jmh.%s", "mode": "%s", "threads": 1, "forks": 1,
         %s "primaryMetric": {"score": %s, "scoreError": 1.5, "scoreConfidence": [0, 0], "scoreUnit": "%s",
         "rawData": [[1.0]]}, "secondaryMetrics": {}}""",
        benchmark, mode, params.isEmpty() ? "" : "\"params\": {" + params + "},", score, unit);
  }

  private Path file(String name, String... results) throws IOException {
    return Files.writeString(dir.resolve(name), "[" + String.join(",\n", results) + "]");
  }

  private Path baseline() throws IOException {
    return file("baseline.json",
        result("MemTableInsertBenchmark.insert", "thrpt", "", 1_000_000, "ops/s"),
        result("BloomFilterProbeBenchmark.absent", "avgt", "\"bitsPerKey\": \"10\"", 20.0, "ns/op"),
        result("BloomFilterProbeBenchmark.absent", "avgt", "\"bitsPerKey\": \"14\"", 25.0, "ns/op"));
  }

  /** A run of the baseline's three combinations with these scores. */
  private Path runOfBaselineShape(double insert, double absent10, double absent14) throws IOException {
    return file("run.json",
        result("MemTableInsertBenchmark.insert", "thrpt", "", insert, "ops/s"),
        result("BloomFilterProbeBenchmark.absent", "avgt", "\"bitsPerKey\": \"10\"", absent10, "ns/op"),
        result("BloomFilterProbeBenchmark.absent", "avgt", "\"bitsPerKey\": \"14\"", absent14, "ns/op"));
  }

  private CliRun compare(Path baseline, Path run, String... more) {
    String[] args = new String[3 + more.length];
    args[0] = "jmh-compare";
    args[1] = "--baseline=" + baseline;
    args[2] = "--run=" + run;
    System.arraycopy(more, 0, args, 3, more.length);
    return CliRun.of(args);
  }

  /** The table row of a benchmark and its params, with each run of spaces folded into one. */
  private static String line(CliRun run, String startingWith, String params) {
    return run.outLines().stream()
        .map(l -> l.replaceAll(" +", " "))
        .filter(l -> l.startsWith(startingWith) && l.contains(params))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line for " + startingWith + " " + params + " in\n" + run.out()));
  }

  @Test
  void changesWithinTheThresholdPassUnflagged() throws IOException {
    Path run = runOfBaselineShape(950_000, 21.0, 24.0);

    CliRun r = compare(baseline(), run);

    assertEquals(0, r.exitCode(), r.err());
    assertEquals("", r.err());
    String insert = line(r, "MemTableInsertBenchmark.insert", "");
    assertTrue(insert.endsWith("thrpt ops/s 1,000,000 950,000 0.950"), insert);
    assertTrue(line(r, "BloomFilterProbeBenchmark.absent", "bitsPerKey=10").endsWith("20.000 21.000 1.050"), r.out());
    assertEquals("3 of 3 compared, 0 regressions beyond 10%", r.lastOutLine());
  }

  @Test
  void lowerThroughputIsARegressionAndHigherAnImprovement() throws IOException {
    Path run = runOfBaselineShape(800_000, 20.0, 25.0);
    Path faster = file("faster.json", result("MemTableInsertBenchmark.insert", "thrpt", "", 1_200_000, "ops/s"));

    CliRun slower = compare(baseline(), run);
    CliRun better = compare(baseline(), faster);

    assertEquals(1, slower.exitCode(), slower.err());
    assertTrue(line(slower, "MemTableInsertBenchmark.insert", "").endsWith("0.800 REGRESSION"), slower.out());
    assertEquals("3 of 3 compared, 1 regression beyond 10%", slower.lastOutLine());
    assertEquals(0, better.exitCode(), better.err());
    assertTrue(line(better, "MemTableInsertBenchmark.insert", "").endsWith("1.200 improved"), better.out());
  }

  @Test
  void longerAverageTimeIsARegressionAndShorterAnImprovement() throws IOException {
    Path run = runOfBaselineShape(1_000_000, 23.0, 20.0);

    CliRun r = compare(baseline(), run);

    assertEquals(1, r.exitCode(), r.err());
    assertTrue(line(r, "BloomFilterProbeBenchmark.absent", "bitsPerKey=10").endsWith("1.150 REGRESSION"), r.out());
    assertTrue(line(r, "BloomFilterProbeBenchmark.absent", "bitsPerKey=14").endsWith("0.800 improved"), r.out());
  }

  @Test
  void aWiderThresholdToleratesTheSameRegression() throws IOException {
    Path run = file("run.json", result("MemTableInsertBenchmark.insert", "thrpt", "", 850_000, "ops/s"));

    assertEquals(1, compare(baseline(), run).exitCode());
    CliRun r = compare(baseline(), run, "--threshold=20");

    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.lastOutLine().endsWith("0 regressions beyond 20%"), r.out());
  }

  @Test
  void aBenchmarkOnOneSideOnlyIsListedButNotARegression() throws IOException {
    Path run = file("run.json",
        result("MemTableInsertBenchmark.insert", "thrpt", "", 1_000_000, "ops/s"),
        result("BloomFilterProbeBenchmark.absent", "avgt", "\"bitsPerKey\": \"10\"", 20.0, "ns/op"),
        result("WalAppendBenchmark.append", "thrpt", "\"sync\": \"true\"", 1_000, "ops/s"));

    CliRun r = compare(baseline(), run);

    assertEquals(0, r.exitCode(), r.err());
    assertTrue(line(r, "BloomFilterProbeBenchmark.absent", "bitsPerKey=14").endsWith("25.000 - - not in run"),
        r.out());
    assertTrue(line(r, "WalAppendBenchmark.append", "sync=true").endsWith("- 1,000 - not in baseline"), r.out());
    assertEquals("2 of 4 compared, 0 regressions beyond 10%", r.lastOutLine());
  }

  @Test
  void jsonHasOneResultPerCombinationWithItsVerdict() throws IOException {
    Path run = file("run.json",
        result("MemTableInsertBenchmark.insert", "thrpt", "", 500_000, "ops/s"),
        result("BloomFilterProbeBenchmark.absent", "avgt", "\"bitsPerKey\": \"10\"", 20.0, "ns/op"));

    CliRun r = compare(baseline(), run, "--json");

    assertEquals(1, r.exitCode(), r.err());
    JsonNode o = new ObjectMapper().readTree(r.out());
    assertEquals(0.1, o.get("threshold").asDouble(), 1e-12);
    assertEquals(1, o.get("regressions").asInt());
    JsonNode results = o.get("results");
    assertEquals(3, results.size());
    assertEquals("io.iam.bench.jmh.MemTableInsertBenchmark.insert", results.get(0).get("benchmark").asText());
    assertEquals(0.5, results.get(0).get("ratio").asDouble(), 1e-12);
    assertEquals("regression", results.get(0).get("verdict").asText());
    assertEquals("10", results.get(1).get("params").get("bitsPerKey").asText());
    assertEquals("same", results.get(1).get("verdict").asText());
    assertTrue(results.get(2).get("score").isNull());
    assertTrue(results.get(2).get("ratio").isNull());
    assertEquals("only_baseline", results.get(2).get("verdict").asText());
  }

  @Test
  void aFileThatIsNotJsonIsAUsageErrorNamingTheFile() throws IOException {
    Path bad = Files.writeString(dir.resolve("bad.json"), "# Run complete. Total time: 00:01:00\n");

    CliRun r = compare(baseline(), bad);

    assertEquals(2, r.exitCode());
    assertEquals("", r.out());
    assertTrue(r.err().startsWith("iam jmh-compare: " + bad + ": not JSON"), r.err());
  }

  @Test
  void aResultWithoutAScoreIsAUsageErrorNamingTheFieldAndTheBenchmark() throws IOException {
    Path bad = Files.writeString(dir.resolve("bad.json"),
        "[{\"benchmark\": \"io.iam.bench.jmh.X.y\", \"mode\": \"avgt\", \"primaryMetric\": {\"scoreUnit\": \"ns/op\"}}]");

    CliRun r = compare(bad, baseline());

    assertEquals(2, r.exitCode());
    assertEquals("iam jmh-compare: " + bad
        + ": result 0 (io.iam.bench.jmh.X.y): field primaryMetric.score is missing or not a number\n", r.err());
  }

  @Test
  void anObjectInsteadOfAnArrayOrAMissingFileIsAUsageError() throws IOException {
    Path object = Files.writeString(dir.resolve("object.json"), "{\"benchmark\": \"x\"}");
    Path missing = dir.resolve("missing.json");

    CliRun notArray = compare(baseline(), object);
    CliRun notThere = compare(missing, baseline());

    assertEquals(2, notArray.exitCode());
    assertTrue(notArray.err().contains(object + ": expected a JSON array of JMH results"), notArray.err());
    assertEquals(2, notThere.exitCode());
    assertTrue(notThere.err().contains(missing + ": no such file"), notThere.err());
  }

  @Test
  void differentUnitsOrABadThresholdAreUsageErrors() throws IOException {
    Path micros = file("run.json", result("BloomFilterProbeBenchmark.absent", "avgt", "\"bitsPerKey\": \"10\"", 0.02,
        "us/op"));

    CliRun units = compare(baseline(), micros);
    CliRun threshold = compare(baseline(), baseline(), "--threshold=-5%");

    assertEquals(2, units.exitCode());
    assertTrue(units.err().contains("the baseline is in ns/op and the run in us/op"), units.err());
    assertEquals(2, threshold.exitCode());
    assertTrue(threshold.err().contains("--threshold must be a percentage of at least 0"), threshold.err());
  }

  @Test
  void helpShowsThePercentSignsWithoutPicocliWarnings() {
    CliRun r = CliRun.of("jmh-compare", "--help");

    assertEquals(0, r.exitCode());
    assertEquals("", r.err());
    assertTrue(r.out().replaceAll("\\s+", " ").contains("as 10% or 10 (default: 10%)"), r.out());
  }
}
