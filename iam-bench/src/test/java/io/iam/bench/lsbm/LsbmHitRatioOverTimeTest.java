package io.iam.bench.lsbm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny run of the hit-ratio-over-time benchmark: samples per tree, a CSV and a PNG. */
class LsbmHitRatioOverTimeTest {

  @Test
  void samplesEachTreeAndWritesTheChart(@TempDir Path dir) throws Exception {
    HitRatioOverTime.Params p = new HitRatioOverTime.Params(4000, 200, 8000, 1000, 0.05, 0.5, "256KiB", "64KiB", "256KiB", false,
        Map.of("lsbm-freeze-shrink", "1"), 1);
    Map<String, HitRatioOverTime.Run> byTree = new LinkedHashMap<>();
    for (String tree : List.of("leveled", "lsbm")) {
      HitRatioOverTime.Run run = HitRatioOverTime.run(tree, dir.resolve(tree), p);
      List<HitRatioOverTime.Sample> samples = run.samples();
      assertEquals(8, samples.size(), tree);
      assertTrue(samples.stream().allMatch(s -> s.hitRatio() >= 0 && s.hitRatio() <= 1), samples.toString());
      assertTrue(run.reads() > 0 && run.readsPerSecond() > 0, tree);
      HitRatioOverTime.ReadCosts c = run.costs();
      assertEquals(run.reads(), c.hitReads() + c.missReads(), "every read is a hit or a miss: " + c);
      assertEquals(run.readNanos(), c.hitNanos() + c.missNanos(), "and its time is counted once: " + c);
      assertTrue(c.missReads() > 0 && c.blockMisses() >= c.missReads(), "a read that missed met a block miss: " + c);
      assertTrue(samples.stream().allMatch(s -> s.readsPerSecond() > 0), samples.toString());
      byTree.put(tree, run);
    }
    HitRatioOverTime.write(dir.resolve("out"), byTree);
    assertTrue(Files.size(dir.resolve("out/hit-ratio.png")) > 0);
    assertTrue(Files.size(dir.resolve("out/reads-per-second.png")) > 0);
    assertEquals(1 + 16, Files.readAllLines(dir.resolve("out/hit-ratio.csv")).size());
  }
}
