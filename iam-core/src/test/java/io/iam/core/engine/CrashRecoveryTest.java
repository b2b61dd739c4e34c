package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a loading child JVM with SIGKILL at random moments (during flushes and compactions, given
 * its tiny memtables), then reopens the store: every acknowledged synced batch must be there with
 * the right values, no batch may be half there, and the tree must verify. {@code
 * -Diam.crash.kills=N} runs more rounds (200 in the long profile).
 */
@Timeout(600)
class CrashRecoveryTest {

  private static final int KILLS = Integer.getInteger("iam.crash.kills", 20);

  @Test
  void acknowledgedSyncedWritesSurviveSigkill(@TempDir Path dir) throws Exception {
    SplittableRandom random = new SplittableRandom(Long.getLong("iam.crash.seed", 77));
    List<long[]> acknowledged = new ArrayList<>(); // [first, last] per round
    for (int round = 0; round < KILLS; round++) {
      long first = round * 1_000_000L;
      long last = runAndKill(dir, first, 150 + random.nextInt(600));
      acknowledged.add(new long[] {first, last});
      check(dir, acknowledged, "after kill " + (round + 1) + " (seed " + Long.getLong("iam.crash.seed", 77) + ")");
    }
    long total = acknowledged.stream().mapToLong(r -> r[1] - r[0] + 1).sum();
    assertTrue(total > KILLS, "the child acknowledged too few batches to test anything: " + total);
  }

  /** Runs the child until {@code millis} after it opened the store, kills it, returns the last acknowledged batch. */
  private static long runAndKill(Path dir, long first, long millis) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        CrashWorkload.class.getName(), dir.toString(), Long.toString(first));
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process child = pb.start();
    AtomicLong last = new AtomicLong(first - 1);
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          if (!line.equals("open")) {
            last.set(Long.parseLong(line.trim()));
          }
        }
      } catch (Exception e) {
        // the pipe breaks when the child dies
      }
    });
    reader.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (last.get() < first && System.nanoTime() < deadline && child.isAlive()) {
      Thread.sleep(5);
    }
    Thread.sleep(millis);
    child.destroyForcibly(); // SIGKILL on Linux
    child.waitFor(30, TimeUnit.SECONDS);
    reader.join(10_000);
    assertTrue(last.get() >= first, "the child never acknowledged a write (did it fail to start?)");
    return last.get();
  }

  private static void check(Path dir, List<long[]> rounds, String at) throws Exception {
    try (IamStore store = IamStore.open(dir, StoreModelTest.smallOptions(2))) {
      for (long[] r : rounds) {
        for (long i = r[0]; i <= r[1]; i++) {
          for (String part : new String[] {"a", "b", "c"}) {
            byte[] v = store.get(CrashWorkload.key(i, part));
            assertNotNull(v, at + ": acknowledged batch " + i + part + " lost");
            assertArrayEquals(CrashWorkload.value(i, part), v, at + ": batch " + i + part + " has a wrong value");
          }
        }
        // Batches after the last acknowledged one may or may not have made it, but only whole.
        for (long i = r[1] + 1; i < r[1] + 50; i++) {
          int present = 0;
          for (String part : new String[] {"a", "b", "c"}) {
            byte[] v = store.get(CrashWorkload.key(i, part));
            if (v != null) {
              assertArrayEquals(CrashWorkload.value(i, part), v, at + ": unacknowledged batch " + i + part + " is wrong");
              present++;
            }
          }
          assertTrue(present == 0 || present == 3, at + ": batch " + i + " is half there (" + present + " of 3)");
        }
      }
      assertTrue(store.verify() > 0, at + ": verify found no entries");
      long keys = 0;
      try (StoreIterator it = store.iterator()) {
        for (it.seekToFirst(); it.valid(); it.next()) {
          keys++;
        }
      }
      long acked = rounds.stream().mapToLong(r -> 3 * (r[1] - r[0] + 1)).sum();
      assertTrue(keys >= acked, at + ": scan saw " + keys + " keys, fewer than the " + acked + " acknowledged");
      assertEquals(0, keys % 3, at + ": a batch is half visible to a scan");
    }
  }
}
