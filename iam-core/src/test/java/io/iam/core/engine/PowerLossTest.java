package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Power cuts: every write is synced, the power goes off at a random moment while flushes and
 * compactions run, and each file is left with its synced bytes plus a random subset of its later
 * writes ({@link PowerLossFs}). The store must then open with every acknowledged write, and any
 * other value it holds must come from a later write that was not acknowledged.
 * This checks the order of data, footers, logs, manifest edits and deletions, which a killed
 * process (CrashRecoveryTest) cannot: there the kernel keeps every write.
 */
@Timeout(300)
class PowerLossTest {

  private static final int CUTS = Integer.getInteger("iam.power.cuts", 6);
  private static final int MAX_WRITES = 20_000;
  private static final int KEYS = 1_500;

  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void acknowledgedWritesSurviveAPowerCut(String tree, @TempDir Path dir) throws IOException {
    SplittableRandom random = new SplittableRandom(tree.hashCode());
    TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compare);
    int dropped = 0;
    int tablesInFlight = 0;
    for (int cut = 0; cut < CUTS; cut++) {
      PowerLossFs fs = new PowerLossFs(LocalFs.INSTANCE);
      IamStore store = IamStore.open(fs, dir, StoreModelTest.smallOptions(tree, 2), BytewiseComparator.INSTANCE);
      List<byte[][]> ops = new ArrayList<>(); // {key, value or null for a delete}, each op before it is tried
      int synced = 0; // ops acknowledged as durable: those up to the last synced write that returned
      // Half the cuts come at a random moment; the others when a table is about to be synced, the
      // moment its commit protocol is about: a random moment rarely falls in that window.
      if (cut % 2 == 1) {
        fs.cutAtTableSync(1 + random.nextInt(40));
      }
      Thread cutter = cutter(fs, store, cut % 2 == 1 ? 2_000 : 2 + random.nextInt(150));
      try {
        for (int i = 0; i < MAX_WRITES; i++) {
          byte[] key = key(random.nextInt(KEYS));
          byte[] value = random.nextInt(10) == 0 ? null : value(cut, i, random.nextInt(300));
          WriteOptions opts = random.nextInt(16) == 0 ? WriteOptions.SYNC : WriteOptions.DEFAULT;
          ops.add(new byte[][] {key, value});
          if (value == null) {
            store.delete(key, opts);
          } else {
            store.put(key, value, opts);
          }
          if (opts.sync()) {
            synced = i + 1;
          }
        }
      } catch (IOException powerIsOff) {
        // the cut came while this write ran (or waited for room): it may or may not have reached the log
      }
      fs.cut(); // if the writes ended first, flushes and compactions are still running now
      joinQuietly(cutter);
      closeQuietly(store);
      PowerLossFs.Dropped d = fs.restore(random);
      dropped += d.inAll();
      tablesInFlight += d.tablesInFlight();

      String at = "tree=" + tree + ", after cut " + (cut + 1);
      try (IamStore reopened = IamStore.open(LocalFs.INSTANCE, dir, StoreModelTest.smallOptions(tree, 2),
          BytewiseComparator.INSTANCE)) {
        TreeMap<byte[], byte[]> found = contents(reopened);
        for (int k = 0; k < KEYS; k++) {
          byte[] key = key(k);
          assertArrayEquals(found.get(key), reopened.get(key), at + ": a point read disagrees with a scan, key " + k);
        }
        // Every acknowledged write is there: each key holds its acknowledged value, or the value
        // of a later write to it that was not acknowledged (which may or may not have survived).
        TreeMap<byte[], byte[]> acknowledged = new TreeMap<>(model);
        for (int i = 0; i < synced; i++) {
          apply(acknowledged, ops.get(i));
        }
        java.util.Set<byte[]> keys = new java.util.TreeSet<>(Arrays::compare);
        keys.addAll(acknowledged.keySet());
        keys.addAll(found.keySet());
        for (byte[] key : keys) {
          byte[] got = found.get(key);
          boolean allowed = Arrays.equals(got, acknowledged.get(key));
          for (int i = synced; i < ops.size() && !allowed; i++) {
            allowed = Arrays.equals(ops.get(i)[0], key) && Arrays.equals(got, ops.get(i)[1]);
          }
          if (!allowed) {
            fail(at + ": " + synced + " of " + ops.size() + " writes acknowledged; against those:"
                + difference(acknowledged, found));
          }
        }
        TreeMap<byte[], byte[]> expected = found;
        model = expected;
      }
    }
    assertTrue(dropped > 0, "tree=" + tree + ": no cut ever found an unsynced write to drop");
    assertTrue(tablesInFlight > 0, "tree=" + tree + ": no cut ever caught a table file being written");
  }

  /** The keys {@code found} lacks, has too many, or holds with another value than {@code want} (the first few). */
  private static String difference(TreeMap<byte[], byte[]> want, TreeMap<byte[], byte[]> found) {
    StringBuilder out = new StringBuilder();
    int shown = 0;
    for (Map.Entry<byte[], byte[]> e : want.entrySet()) {
      byte[] f = found.get(e.getKey());
      if (!Arrays.equals(f, e.getValue()) && shown++ < 8) {
        out.append(' ').append(new String(e.getKey(), StandardCharsets.US_ASCII)).append(f == null ? " missing" : " stale (want " + new String(e.getValue(), 0, 8, StandardCharsets.US_ASCII) + ", found " + new String(f, 0, 8, StandardCharsets.US_ASCII) + ")");
      }
    }
    long extra = found.keySet().stream().filter(k -> !want.containsKey(k)).count();
    return out.append(", ").append(extra).append(" keys too many").toString();
  }

  private static void apply(TreeMap<byte[], byte[]> model, byte[][] op) {
    if (op[1] == null) {
      model.remove(op[0]);
    } else {
      model.put(op[0], op[1]);
    }
  }

  private static TreeMap<byte[], byte[]> contents(IamStore store) {
    TreeMap<byte[], byte[]> all = new TreeMap<>(Arrays::compare);
    try (StoreIterator it = store.iterator()) {
      for (it.seekToFirst(); it.valid(); it.next()) {
        all.put(it.key(), it.value());
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return all;
  }

  /**
   * A thread that cuts the power {@code millis} from now (or sees it cut), while the writes and
   * background work go on, then closes the store: background work retries failed writes until the store closes, so a
   * writer waiting for a flush would otherwise wait for good.
   */
  private static Thread cutter(PowerLossFs fs, IamStore store, int millis) {
    Thread t = new Thread(() -> {
      long deadline = System.nanoTime() + millis * 1_000_000L;
      try {
        while (!fs.isOff() && System.nanoTime() < deadline) {
          Thread.sleep(1);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      fs.cut();
      closeQuietly(store);
    }, "power-cut");
    t.start();
    return t;
  }

  private static void joinQuietly(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(IamStore store) {
    try {
      store.close();
    } catch (IOException | RuntimeException e) {
      // the power is off: closing fails, as it would
    }
  }

  private static byte[] key(int k) {
    return String.format("key%06d", k).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] value(int cut, int i, int padding) {
    byte[] v = new byte[20 + padding];
    Arrays.fill(v, (byte) ('a' + (i % 26)));
    byte[] id = (cut + ":" + i).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(id, 0, v, 0, id.length);
    return v;
  }
}
