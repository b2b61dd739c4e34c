package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepTest {

  @BeforeAll
  static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  @Test
  void smallSweepWritesCsvFilesAndCharts(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("sweep");
    CliRun run = CliRun.of("simulate", "--sweep", "--out", out.toString(),
        "--sweep-max-flushes", "2500", "--threads", "2", "--json");

    assertEquals(0, run.exitCode(), run.err());
    int runs = SweepPlan.BOUNDED.size() * SweepPlan.KS.size() + SweepPlan.REFERENCE.size();

    List<String> sweep = Files.readAllLines(out.resolve("sweep.csv"));
    assertEquals(SweepCsv.SWEEP_HEADER, sweep.get(0));
    assertEquals("policy,k,flushes,writeAmplification,averageComponents,maxComponents,merges,bytesWritten",
        sweep.get(0));
    assertEquals(1 + runs * 2, sweep.size(), "checkpoints 2000 and 2500 per run");
    assertTrue(sweep.contains(sweep.stream().filter(l -> l.startsWith("prefix,,2500,")).findFirst().orElseThrow()));

    List<String> series = Files.readAllLines(out.resolve("series.csv"));
    assertEquals("policy,k,flushes,writeAmplification,components,averageComponents,merges", series.get(0));
    assertEquals(1 + runs * 25, series.size(), "a point every 100 flushes up to 2500");

    for (String png : List.of("wa-vs-flushes-n24000.png", "wa-vs-flushes-n2000.png", "wa-vs-components.png")) {
      Path file = out.resolve(png);
      assertTrue(Files.size(file) > 0, png);
      BufferedImage image = ImageIO.read(file.toFile());
      assertTrue(image != null && image.getWidth() > 0 && image.getHeight() > 0, png);
    }

    JsonNode json = new ObjectMapper().readTree(run.lastOutLine());
    assertEquals(runs, json.get("runs").asInt());
    assertEquals(out.toString(), json.get("outDir").asText());
    assertEquals(5, json.get("files").size());
    assertTrue(run.out().contains("binomial"), run.out());
  }

  @Test
  void checkpointBytesWrittenIsExact(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("sweep");
    CliRun run = CliRun.of("simulate", "--sweep", "--out", out.toString(),
        "--sweep-max-flushes", "2000", "--flush-size", "1000");
    assertEquals(0, run.exitCode(), run.err());

    String minLatency = Files.readAllLines(out.resolve("sweep.csv")).stream()
        .filter(l -> l.startsWith("minlatency,6,2000,")).findFirst().orElseThrow();
    var direct = CliRun.of("simulate", "--policy", "minlatency", "--k", "6", "--flushes", "2000",
        "--flush-size", "1000", "--json");
    JsonNode json = new ObjectMapper().readTree(direct.lastOutLine());
    String[] cells = minLatency.split(",");
    assertEquals(json.get("bytesWritten").asLong(), Long.parseLong(cells[7]));
    assertEquals(json.get("merges").asLong(), Long.parseLong(cells[6]));
    assertEquals(json.get("maxComponents").asInt(), Integer.parseInt(cells[5]));
    assertEquals(json.get("writeAmplification").asDouble(), Double.parseDouble(cells[3]));
  }

  @Test
  void unwritableOutputIsOneLineError(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
    CliRun run = CliRun.of("simulate", "--sweep", "--out", file.toString(), "--sweep-max-flushes", "10");

    assertEquals(1, run.exitCode(), run.err());
    assertEquals(1, run.err().lines().count(), run.err());
    assertTrue(run.err().startsWith("iam simulate: I/O error"), run.err());
    assertTrue(run.err().contains("is not a directory"), run.err());
  }
}
