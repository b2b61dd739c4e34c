package io.iam.bench.asterix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.core.engine.KilledChild;
import io.iam.core.policy.Component;
import io.iam.core.policy.MergePlan;
import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.MergePolicy;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.ReplayedFlushes;
import io.iam.core.sim.Simulator;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded AsterixDB's JVM is killed (SIGKILL) in the middle of an ingestion, while its NC
 * flushes and merges under binomial k = 4, and started again on the same files
 * ({@link AsterixCrashChild}). After AsterixDB's own recovery:
 *
 * <ul>
 *   <li>every record of every acknowledged batch reads back with its value;
 *   <li>the dataset still names IAM's binomial policy with its parameter in the metadata;
 *   <li>the policy's decisions over the next flushes are those the simulator predicts from the
 *       recovered component list: the components (the flushes each holds, from AsterixDB's ids)
 *       after every flush are the simulator's.
 * </ul>
 *
 * <p>{@code iam.asterix.kills} kill-and-restart rounds on the same files (1; 5 with {@code -Plong}),
 * each ingesting from where the last acknowledged batch ended, for at least {@code
 * iam.asterix.batches} batches of 200 records (20; 150 with {@code -Plong}) and then 0.5 to 4 s
 * more.
 */
class AsterixCrashRecoveryTest {

  private static final List<String> JVM = List.of("-Xmx768m",
      "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
      "--add-opens", "java.base/java.lang=ALL-UNNAMED");
  /** Flushes made after each recovery, whose decisions are checked. */
  private static final int FLUSHES_AFTER = 24;

  @Test
  void aKilledInstanceRecoversEveryAcknowledgedRecordAndItsPolicyGoesOnAsSimulated(@TempDir Path home)
      throws Exception {
    int rounds = Integer.getInteger("iam.asterix.kills", 1);
    int batches = Integer.getInteger("iam.asterix.batches", 20);
    Random random = new Random(11);
    long first = 0;
    for (int round = 1; round <= rounds; round++) {
      long last = KilledChild.runAndKill(AsterixCrashChild.class, JVM,
          List.of("ingest", home.toString(), Long.toString(first)), first + batches, 500 + random.nextInt(3500), 300);
      JsonNode r = verify(home, last);
      String at = "round " + round + " (batches " + first + " to " + last + " acknowledged): ";
      assertEquals(r.path("expected").asLong(), r.path("seen").asLong(), at + "records of acknowledged batches read back");
      assertEquals(0, r.path("wrong").asLong(), at + "records out of order or with another value");
      assertEquals("binomial", r.path("policy").asText(), at + r);
      assertEquals(AsterixCrashChild.K, r.path("properties").path("num-components").asText(), at + r);
      assertTrue(r.path("recovered").size() >= 1, at + "no components recovered: " + r);
      System.out.println(at + "recovered components [minId, maxId, bytes] " + r.path("recovered"));
      assertSimulatorsDecisions(r, at);
      first = last + 1;
    }
  }

  /**
   * The components after each flush made after recovery, as the flushes each holds, equal the
   * simulator's run of the same flush sizes from the recovered components.
   */
  private static void assertSimulatorsDecisions(JsonNode r, String at) {
    List<Component> recovered = new ArrayList<>();
    long flushes = 0;
    for (JsonNode c : r.path("recovered")) {
      long held = c.get(1).asLong() - c.get(0).asLong() + 1;
      recovered.add(new Component(recovered.size(), c.get(2).asLong(), flushes + 1, flushes + held, 1, false));
      flushes += held;
    }
    List<Long> sizes = new ArrayList<>();
    r.path("flushSizes").forEach(s -> sizes.add(s.asLong()));
    MergePolicy policy = MergePolicies.create("binomial", Map.of("max-components", AsterixCrashChild.K));
    List<List<Long>> predicted = new ArrayList<>();
    int[] merges = {0};
    new Simulator(policy, new ReplayedFlushes("after recovery", sizes, null), Accounting.FLUSH_THEN_MERGE, 1, null)
        .from(recovered).observe((snapshot, plan) -> {
          List<Long> held = new ArrayList<>();
          for (int i = 0; i < snapshot.size(); i++) {
            held.add(snapshot.get(i).lastFlush() - snapshot.get(i).firstFlush() + 1);
          }
          predicted.add(applied(held, plan));
          merges[0] += plan.isNone() ? 0 : 1;
        }).run(sizes.size());
    List<List<Long>> measured = new ArrayList<>();
    for (JsonNode list : r.path("after")) {
      List<Long> held = new ArrayList<>();
      list.forEach(c -> held.add(c.get(1).asLong() - c.get(0).asLong() + 1));
      measured.add(held);
    }
    assertEquals(FLUSHES_AFTER, measured.size(), at + r);
    assertTrue(merges[0] >= FLUSHES_AFTER / 4, at + "binomial k = 4 merges often: " + predicted);
    assertEquals(predicted, measured, at + "flushes held by each component after each flush; recovered "
        + r.path("recovered"));
  }

  /** The flushes each component holds after {@code plan} merged some of them. */
  private static List<Long> applied(List<Long> held, MergePlan plan) {
    if (plan.isNone()) {
      return held;
    }
    List<Long> out = new ArrayList<>(held.subList(0, plan.from()));
    out.add(held.subList(plan.from(), plan.to() + 1).stream().mapToLong(Long::longValue).sum());
    out.addAll(held.subList(plan.to() + 1, held.size()));
    return out;
  }

  /** Runs the child's verify mode to its end and returns its result. */
  private static JsonNode verify(Path home, long last) throws Exception {
    Path err = Files.createTempFile("asterix-verify-", ".err");
    try {
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      command.addAll(JVM);
      command.addAll(List.of("-cp", System.getProperty("java.class.path"), AsterixCrashChild.class.getName(),
          "verify", home.toString(), Long.toString(last), Integer.toString(FLUSHES_AFTER)));
      Process child = new ProcessBuilder(command).redirectError(err.toFile()).start();
      String result = null;
      try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          if (line.startsWith("RESULT ")) {
            result = line.substring("RESULT ".length());
          }
        }
      }
      assertTrue(child.waitFor(300, TimeUnit.SECONDS), "the verifying child did not end");
      String tail = tail(err);
      assertEquals(0, child.exitValue(), "the verifying child failed: " + tail);
      assertTrue(result != null, "the verifying child printed no result: " + tail);
      return new ObjectMapper().readTree(result);
    } finally {
      Files.deleteIfExists(err);
    }
  }

  private static String tail(Path file) throws Exception {
    List<String> lines = Files.readAllLines(file);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
