package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.option.OptionValues;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tree=lsbm across SIGKILLs: a child process updates random keys of a loaded store in synced
 * batches (so merges keep buffering files and the trim keeps removing some) and is killed at a
 * random moment; the store is reopened with its recovered compaction buffer, and every key must
 * read (point reads and a scan) as the newest acknowledged batch left it, or as the one batch
 * after it that may have landed: a recovered buffer that answered with an older version would
 * show here. The main method is the child.
 */
class LsbmCrashTest {

  static final int KEYS = 3000;
  static final int PER_BATCH = 20;
  private static final int ROUNDS = 4;

  static OptionValues options() {
    return StoreModelTest.with(StoreModelTest.smallOptions("lsbm", 2),
        Map.of("lsbm-freeze-shrink", "1", "lsbm-trim-interval-ms", "20", "lsbm-trim-threshold", "0.3"));
  }

  static byte[] key(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  /** Batch 0 is the load; about 200 bytes. */
  static byte[] value(long batch, int i) {
    return String.format("%-200s", "v" + batch + ":" + i).getBytes(StandardCharsets.UTF_8);
  }

  /** The keys batch {@code n} updates. */
  static int[] keysOf(long n) {
    SplittableRandom r = new SplittableRandom(n * 7919);
    int[] out = new int[PER_BATCH];
    for (int j = 0; j < PER_BATCH; j++) {
      out[j] = r.nextInt(KEYS);
    }
    return out;
  }

  /** The child: writes batches from {@code args[1]} on, printing each acknowledged one. */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long first = Long.parseLong(args[1]);
    try (IamStore store = IamStore.open(dir, options())) {
      System.out.println("open");
      System.out.flush();
      for (long n = first; ; n++) {
        WriteBatch batch = new WriteBatch();
        for (int i : keysOf(n)) {
          batch.put(key(i), value(n, i));
        }
        store.write(batch, WriteOptions.SYNC);
        store.get(key((int) (n % KEYS))); // reads keep buffer files cached
        KilledChild.acknowledge(n);
      }
    }
  }

  @Test
  void theRecoveredBufferAnswersWithTheNewestVersions(@TempDir Path dir) throws Exception {
    try (IamStore store = IamStore.open(dir, options())) {
      for (int i = 0; i < KEYS; i++) {
        store.put(key(i), value(0, i));
      }
      store.flushAndSettle();
    }
    Map<Integer, Long> acked = new HashMap<>(); // key -> newest acknowledged batch
    List<Long> maybe = new ArrayList<>(); // the batch after each kill's last acknowledged one
    long next = 1;
    long bufferedReads = 0;
    boolean recoveredBuffer = false;
    SplittableRandom random = new SplittableRandom(11);
    List<String> ranges = new ArrayList<>(); // what each child acknowledged, for a failure's message
    for (int round = 0; round < ROUNDS; round++) {
      long last = runAndKill(dir, next, 300 + random.nextInt(700));
      ranges.add(next + ".." + last);
      for (long n = next; n <= last; n++) {
        for (int i : keysOf(n)) {
          acked.put(i, n);
        }
      }
      maybe.add(last + 1);
      next = last + 1000; // the maybe batch keeps its own numbers
      try (IamStore store = IamStore.open(dir, options())) {
        recoveredBuffer |= !StoreTrees.compactionBuffer(store).isEmpty();
        for (int i = 0; i < KEYS; i++) {
          check(i, store.get(key(i)), acked, maybe, "round " + round + " get (acknowledged " + ranges + ")");
        }
        try (StoreIterator it = store.iterator()) {
          it.seekToFirst();
          for (int i = 0; i < KEYS; i++, it.next()) {
            assertTrue(it.valid(), "round " + round + ": the scan ended early at " + i);
            assertArrayEquals(key(i), it.key());
            check(i, it.value(), acked, maybe, "round " + round + " scan (acknowledged " + ranges + ")");
          }
        }
        bufferedReads += store.statistics().bufferHits();
      }
    }
    assertTrue(recoveredBuffer, "some reopen recovered a non-empty buffer");
    assertTrue(bufferedReads > 0, "reads after reopening went through the recovered buffer");
  }

  private static void check(int i, byte[] got, Map<Integer, Long> acked, List<Long> maybe, String at) {
    long newest = acked.getOrDefault(i, 0L);
    if (java.util.Arrays.equals(value(newest, i), got)) {
      return;
    }
    for (long m : maybe) {
      if (m > newest && contains(keysOf(m), i) && java.util.Arrays.equals(value(m, i), got)) {
        return;
      }
    }
    throw new AssertionError(at + ": key " + i + " reads " + (got == null ? "nothing" : new String(got, StandardCharsets.UTF_8).trim())
        + ", expected batch " + newest + " (or a later unacknowledged one)");
  }

  private static boolean contains(int[] a, int x) {
    for (int v : a) {
      if (v == x) {
        return true;
      }
    }
    return false;
  }

  /** Runs the child from batch {@code first} until {@code millis} after its first acknowledged batch; returns the last one. */
  private static long runAndKill(Path dir, long first, long millis) throws Exception {
    return KilledChild.runAndKill(LsbmCrashTest.class, List.of(dir.toString(), Long.toString(first)), first, millis);
  }
}
