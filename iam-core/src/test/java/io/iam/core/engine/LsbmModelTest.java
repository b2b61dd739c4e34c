package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.option.OptionValues;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * tree=lsbm against a TreeMap model, with a hot key range that takes most reads and many of the
 * updates and deletes, so the buffer serves hot keys while newer versions and deletions of the
 * same keys arrive above it: every read must still see the newest version. Each case mixes puts,
 * deletes, batches, point reads, scans, snapshot reads, trims (by hand, or a 5 ms background
 * trim racing everything), settles and reopens. {@code -Diam.model.ops=N} sets the operations
 * per case (the seed is in every failure message).
 */
class LsbmModelTest {

  private static final int OPS = Integer.getInteger("iam.model.ops", 40_000);
  private static final int KEYS = 4000;
  private static final int HOT = 300;

  /**
   * Seed, then options: never freeze / freeze at 10% shrink; pace at 1× / 0.3× / 10× of S_i; trims;
   * gear levels (the default) and, in the last two, levels of one run each.
   */
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(1L, Map.of("lsbm-freeze-shrink", "1")),
        Arguments.of(2L, Map.of("lsbm-freeze-shrink", "1", "lsbm-buffer-fraction", "0.3")),
        Arguments.of(3L, Map.of()),
        Arguments.of(4L, Map.of("lsbm-freeze-shrink", "1", "lsbm-trim-interval-ms", "5", "lsbm-trim-threshold", "0.2",
            "background-threads", "2")),
        Arguments.of(5L, Map.of("lsbm-freeze-shrink", "1", "lsbm-trim-threshold", "0.9")),
        // nothing leaves the buffer but by retiring: sources outlive several merges and levels
        Arguments.of(6L, Map.of("lsbm-freeze-shrink", "1", "lsbm-buffer-fraction", "10")),
        Arguments.of(7L, Map.of("lsbm-levels", "leveled", "lsbm-freeze-shrink", "1", "lsbm-buffer-fraction", "10")),
        Arguments.of(8L, Map.of("lsbm-levels", "leveled", "lsbm-trim-interval-ms", "5", "lsbm-trim-threshold", "0.2",
            "background-threads", "2")));
  }

  @ParameterizedTest(name = "seed {0}, {1}")
  @MethodSource("cases")
  @Timeout(600)
  void randomOperationsWithAHotRangeMatchTheModel(long seed, Map<String, String> extra, @TempDir Path dir) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
    OptionValues options = LsbmStoreTest.options(extra);
    IamStore store = IamStore.open(dir, options);
    Snapshot snap = null;
    TreeMap<byte[], byte[]> snapModel = null;
    long hits = 0;
    try {
      for (int step = 0; step < OPS; step++) {
        String at = "seed " + seed + " " + extra + " step " + step;
        int op = random.nextInt(100);
        if (op < 30) {
          byte[] key = key(random, 50);
          byte[] value = value(random);
          store.put(key, value);
          model.put(key, value);
        } else if (op < 38) {
          byte[] key = key(random, 50);
          store.delete(key);
          model.remove(key);
        } else if (op < 80) {
          byte[] key = key(random, 80);
          StoreModelTest.assertValue(model.get(key), store.get(key), at + ": get " + str(key));
        } else if (op < 83) {
          WriteBatch batch = StoreModelTest.randomBatch(random, 1 + random.nextInt(30), 3, () -> key(random, 50),
              () -> value(random), model);
          store.write(batch, WriteOptions.DEFAULT);
        } else if (op < 86) {
          StoreModelTest.scan(store, ReadOptions.DEFAULT, model, random, at);
        } else if (op < 90) {
          if (snap == null) {
            snap = store.snapshot();
            snapModel = new TreeMap<>(model);
          } else if (random.nextInt(4) == 0) {
            snap.close();
            snap = null;
          } else {
            byte[] key = key(random, 80);
            StoreModelTest.assertValue(snapModel.get(key), store.get(key, ReadOptions.at(snap)), at + ": snapshot get " + str(key));
          }
        } else if (op < 95) {
          store.runMaintenance();
        } else if (op < 99) {
          if (random.nextInt(10) == 0) {
            store.flushAndSettle();
          }
        } else if (random.nextInt(20) == 0) {
          if (snap != null) {
            snap.close();
            snap = null;
          }
          hits += store.statistics().bufferHits();
          store.close();
          store = IamStore.open(dir, options);
        }
      }
      store.flushAndSettle();
      StoreModelTest.fullCheck(store, model, "seed " + seed + " " + extra + " at the end");
      hits += store.statistics().bufferHits();
      System.out.println("lsbm seed " + seed + " " + extra + ": buffer hits " + hits + "\n" + store.describe());
      if ("1".equals(extra.get("lsbm-freeze-shrink"))) { // with freezing, updates may keep the lists frozen
        assertTrue(hits > 0, "the buffer answered reads: " + store.describe());
      }
      assertTrue(store.verify() > 0);
      if (snap != null) {
        snap.close();
      }
      store.close();
      store = IamStore.open(dir, options);
      StoreModelTest.fullCheck(store, model, "seed " + seed + " after the last reopen");
    } finally {
      store.close();
    }
  }

  /** A key: {@code hotPercent}% of the time from the hot range, else from all keys. */
  private static byte[] key(SplittableRandom random, int hotPercent) {
    int i = random.nextInt(100) < hotPercent ? 1000 + random.nextInt(HOT) : random.nextInt(KEYS);
    return String.format("key%05d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(SplittableRandom random) {
    byte[] v = new byte[20 + random.nextInt(200)];
    random.nextBytes(v);
    return v;
  }

  private static String str(byte[] k) {
    return new String(k, StandardCharsets.UTF_8);
  }
}
