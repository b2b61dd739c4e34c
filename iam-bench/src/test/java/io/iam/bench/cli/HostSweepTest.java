package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.host.HostExperiment;
import io.iam.bench.host.HostRun;
import io.iam.core.policy.MergePolicies;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.ReplayedFlushes;
import io.iam.core.sim.SimulationResult;
import io.iam.core.sim.Simulator;
import io.iam.core.sim.UniformFlushes;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code iam host-experiment --sweep} over a host that is the cost model itself: every point runs once, in the plan's order or side by side; points.jsonl gets a line
 * per point; a sweep given the same directory again runs only the points that are not there; the
 * summary counts the points within 5% and draws both charts.
 */
class HostSweepTest {

  /** The cost model as a host: flushes of records × value bytes, each merge writing its inputs' sum. */
  static final class ModelHost implements HostExperiment {
    final List<String> ran = Collections.synchronizedList(new ArrayList<>());
    /** A policy whose runs fail, as a host's can; null for none. */
    volatile String failing;

    @Override
    public HostRun run(Spec spec, LongConsumer progress) throws IOException {
      ran.add(spec.policy() + " " + spec.options());
      if (spec.policy().equals(failing)) {
        throw new IOException("the host failed");
      }
      long flush = (long) spec.recordsPerFlush() * spec.valueBytes();
      SimulationResult r = new Simulator(MergePolicies.create(spec.policy(), spec.options()), new UniformFlushes(flush),
          Accounting.FLUSH_THEN_MERGE, spec.flushes(), steps -> {}).run(spec.flushes());
      progress.accept(spec.flushes());
      List<Long> merges = new ArrayList<>(Collections.nCopies((int) r.merges(), 0L));
      if (!merges.isEmpty()) {
        merges.set(0, r.bytesWritten() - r.bytesFlushed());
      }
      return new HostRun("model", spec.policy(), Collections.nCopies(spec.flushes(), flush), merges, 1,
          r.averageComponents(), r.maxComponents(), 1);
    }

    @Override
    public int maxParallelRuns() {
      return 2;
    }
  }

  /** The run of the fixed-bytes calibration, as {@link ModelHost#ran} lists it. */
  private static final String CALIBRATION = "constant {max-components=1}";

  /**
   * The cost model with components of {@code fixedBytes} that a merge writes once: it reports what
   * its merges read, as AsterixDB does.
   */
  static HostExperiment fixedBytesHost(long fixedBytes) {
    return (spec, progress) -> {
      long flush = (long) spec.recordsPerFlush() * spec.valueBytes();
      List<Long> flushes = Collections.nCopies(spec.flushes(), flush);
      long[] inputs = new long[2];
      List<Long> merges = new ArrayList<>();
      SimulationResult r = new Simulator(MergePolicies.create(spec.policy(), spec.options()),
          ReplayedFlushes.withFixedBytes("fixed", flushes, fixedBytes), Accounting.FLUSH_THEN_MERGE, spec.flushes(),
          steps -> {}).observe((snapshot, plan) -> {
            if (!plan.isNone()) {
              long in = snapshot.sizeBytes(plan.from(), plan.to());
              inputs[0] += plan.width();
              inputs[1] += in;
              merges.add(in - (plan.width() - 1) * fixedBytes);
            }
          }).run(spec.flushes());
      progress.accept(spec.flushes());
      return new HostRun("fixed", spec.policy(), flushes, merges, 1, r.averageComponents(), r.maxComponents(), 1,
          inputs[0], inputs[1]);
    };
  }

  @Test
  void theCalibrationMeasuresAHostsFixedBytesAndTheSimulatorWritesThemOncePerMerge() {
    // Flushes of 100 × 100 bytes, of which 3,000 are fixed: a merge of n writes 3,000 × (n - 1) less.
    HostExperiment host = fixedBytesHost(3000);
    String[] point = {"--host", "fixed", "--policy", "binomial", "--k", "4", "--flushes", "300",
        "--records-per-flush", "100", "--value-size", "100", "--no-progress", "--json"};
    String measured = runOn(host, point);
    assertTrue(measured.contains("fixed bytes of a component: 3,000 (measured by 23 merges of 24 flushes under"
        + " constant k=1)"), measured);
    List<String> lines = measured.lines().toList();
    JsonNode j = json(lines.get(lines.size() - 1));
    assertEquals(3000, j.path("simulated").path("fixedBytes").asLong());
    assertEquals(j.path("writeAmplification").asDouble(), j.path("simulated").path("writeAmplification").asDouble(),
        1e-9, "the simulator's merges wrote what the host's did");
    // Without them the simulator's merges write the sums: more than the host's.
    String[] plain = java.util.Arrays.copyOf(point, point.length + 2);
    plain[point.length] = "--fixed-bytes";
    plain[point.length + 1] = "0";
    String sums = runOn(host, plain);
    assertTrue(sums.contains("fixed bytes of a component: 0 (given with --fixed-bytes)"), sums);
    List<String> sumLines = sums.lines().toList();
    JsonNode s = json(sumLines.get(sumLines.size() - 1)).path("simulated");
    assertTrue(s.path("writeAmplification").asDouble() > j.path("writeAmplification").asDouble() * 1.05, sums);
  }

  @Test
  void fixedBytesThatAreNotANumberAreRefusedBeforeTheHostRuns() {
    ModelHost host = new ModelHost();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new HostExperimentCommand(() -> Map.of("model", host)));
    cl.setErr(new PrintWriter(err));
    assertEquals(2, cl.execute("--host", "model", "--policy", "binomial", "--fixed-bytes", "some"));
    assertTrue(err.toString().contains("--fixed-bytes 'some' is neither a number of bytes nor 'measure'"),
        err.toString());
    assertTrue(host.ran.isEmpty(), host.ran.toString());
  }

  private static String runOn(HostExperiment host, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new HostExperimentCommand(() -> Map.of(args[1], host)));
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    assertEquals(0, cl.execute(args), err.toString() + out);
    return out.toString();
  }

  private static String run(ModelHost host, String... args) {
    return runOn(host, args);
  }

  @Test
  void aPointPrintsWhatItsMergesWroteAndAtWhatRateAndWhenTheyWroteMoreThanTheirInputs() {
    // Four flushes of 1 MiB; one merge of all four wrote 8 KiB more per input after the first, in 2 s.
    HostExperiment grows = (spec, progress) -> {
      progress.accept(spec.flushes());
      return new HostRun("grows", spec.policy(), Collections.nCopies(4, 1L << 20), List.of((4L << 20) + 3 * 8192),
          2000, 2.5, 4, 3000, 4, 4L << 20);
    };
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new HostExperimentCommand(() -> Map.of("grows", grows)));
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    assertEquals(0, cl.execute("--host", "grows", "--policy", "binomial", "--k", "4", "--flushes", "4", "--no-progress"),
        err.toString());
    assertTrue(out.toString().contains("2.0 s  (4.02 MiB merged, 2.01 MiB/s)"), out.toString());
    assertTrue(out.toString().contains("a merge wrote 8.00 KiB more than the sum of its inputs per input after the first"),
        out.toString());
  }

  @Test
  void aSweepRunsEveryPointOnceAndGoesOnWhereItStopped(@TempDir Path dir) throws Exception {
    ModelHost host = new ModelHost();
    String first = run(host, "--host", "model", "--sweep", "--policies", "binomial,minlatency", "--ks", "3,6",
        "--baselines", "prefix", "--flushes", "300", "--parallel", "2", "--out", dir.toString(), "--no-progress");
    assertEquals(6, host.ran.size(), host.ran.toString());
    assertEquals(CALIBRATION, host.ran.get(0), "the calibration runs before the points");
    assertTrue(first.contains("fixed bytes of a component: 0 (model does not say what its merges read, so none are"
        + " counted)"), first);
    assertTrue(first.contains("of the 5 points in " + dir.resolve("points.jsonl")
        + ", write amplification within 5% of the simulator's: 5"), first);
    List<String> lines = Files.readAllLines(dir.resolve("points.jsonl"));
    assertEquals(5, lines.size());
    JsonNode binomial3 = lines.stream().map(HostSweepTest::json).filter(j -> j.path("policy").asText().equals("binomial")
        && j.path("k").asInt() == 3).findFirst().orElseThrow();
    assertEquals(binomial3.path("simulated").path("writeAmplification").asDouble(),
        binomial3.path("writeAmplification").asDouble(), 1e-9);
    assertTrue(Files.size(dir.resolve("model-sweep-wa.png")) > 10_000);
    assertTrue(Files.size(dir.resolve("model-sweep-components.png")) > 10_000);

    String second = run(host, "--host", "model", "--sweep", "--policies", "binomial,minlatency,bigtable", "--ks", "3,6",
        "--baselines", "prefix", "--flushes", "300", "--out", dir.toString(), "--no-progress", "--json");
    assertEquals(9, host.ran.size(), "the calibration and bigtable's two points run: " + host.ran);
    assertEquals(7, Files.readAllLines(dir.resolve("points.jsonl")).size());
    List<String> out = second.lines().toList();
    JsonNode summary = json(out.get(out.size() - 1));
    assertEquals(7, summary.path("points").asInt(), second);
    assertEquals(7, summary.path("withinFivePercent").asInt(), second);

    String third = run(host, "--host", "model", "--sweep", "--policies", "binomial", "--ks", "3", "--baselines=",
        "--flushes", "300", "--out", dir.toString(), "--no-progress", "--json");
    assertEquals(9, host.ran.size(), "nothing to run again, and no calibration: " + host.ran);
    List<String> thirdOut = third.lines().toList();
    assertEquals(7, json(thirdOut.get(thirdOut.size() - 1)).path("points").asInt(), "the summary takes in every point there");
  }

  @Test
  void aPointThatFailsLeavesTheOthersToFinishFailsTheCommandAndRunsAgainInTheNextSweep(@TempDir Path dir)
      throws Exception {
    ModelHost host = new ModelHost();
    host.failing = "minlatency";
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new HostExperimentCommand(() -> Map.of("model", host)));
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    String[] args = {"--host", "model", "--sweep", "--policies", "minlatency,binomial", "--ks", "4,5", "--baselines=",
        "--flushes", "100", "--parallel", "2", "--out", dir.toString(), "--no-progress"};
    assertEquals(1, cl.execute(args), out.toString());
    assertTrue(out.toString().contains("minlatency k=4     failed: java.io.IOException: the host failed"), out.toString());
    assertTrue(err.toString().contains("2 points failed"), err.toString());
    assertEquals(2, Files.readAllLines(dir.resolve("points.jsonl")).size());
    assertTrue(Files.exists(dir.resolve("model-sweep-wa.png")));
    host.failing = null;
    host.ran.clear();
    run(host, args);
    assertEquals(List.of(CALIBRATION, "minlatency {max-components=4}", "minlatency {max-components=5}"),
        host.ran.stream().sorted().toList());
    assertEquals(4, Files.readAllLines(dir.resolve("points.jsonl")).size());
  }

  @Test
  void aSweepOfAnotherFlushCountInTheSameDirectoryIsRefused(@TempDir Path dir) {
    ModelHost host = new ModelHost();
    run(host, "--host", "model", "--sweep", "--policies", "binomial", "--ks", "4", "--baselines=", "--flushes", "50",
        "--out", dir.toString(), "--no-progress");
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new HostExperimentCommand(() -> Map.of("model", host)));
    cl.setErr(new PrintWriter(err));
    assertEquals(2, cl.execute("--host", "model", "--sweep", "--policies", "binomial", "--ks", "4", "--flushes", "60",
        "--out", dir.toString(), "--no-progress"));
    assertTrue(err.toString().contains("holds points of 50 flushes; give --flushes 50"), err.toString());
  }

  @Test
  void aSweepRefusesAPolicyWithoutKAndOneChosenPolicyOptions(@TempDir Path dir) {
    ModelHost host = new ModelHost();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new HostExperimentCommand(() -> Map.of("model", host)));
    cl.setErr(new PrintWriter(err));
    assertEquals(2, cl.execute("--host", "model", "--sweep", "--policies", "prefix", "--out", dir.toString()));
    assertTrue(err.toString().contains("policy prefix has no k (max-components); give it as a baseline"), err.toString());
    assertEquals(2, cl.execute("--host", "model", "--sweep", "--k", "4", "--out", dir.toString()));
    assertTrue(err.toString().contains("--k chooses one policy"), err.toString());
    assertEquals(2, cl.execute("--host", "model", "--sweep"));
    assertTrue(err.toString().contains("--sweep needs --out DIR"), err.toString());
    assertEquals(2, cl.execute("--host", "model", "--sweep", "--parallel", "3", "--out", dir.toString()));
    assertTrue(err.toString().contains("--parallel 3 is out of range: model runs at most 2"), err.toString());
    assertTrue(host.ran.isEmpty(), host.ran.toString());
  }

  private static JsonNode json(String line) {
    try {
      return new ObjectMapper().readTree(line);
    } catch (Exception e) {
      throw new AssertionError(line, e);
    }
  }
}
