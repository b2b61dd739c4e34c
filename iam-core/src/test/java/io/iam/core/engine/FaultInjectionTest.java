package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.FaultInjectingFs;
import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failed table writes and syncs make flushes and compactions fail; the store stays readable and
 * consistent meanwhile, and retries the work once the file system heals.
 */
class FaultInjectionTest {

  private static byte[] k(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  @Timeout(120)
  void failedFlushesAndCompactionsAreRetriedWithoutLosingData(@TempDir Path dir) throws Exception {
    FaultInjectingFs fs = new FaultInjectingFs(LocalFs.INSTANCE);
    TreeMap<byte[], byte[]> model = new TreeMap<>(java.util.Arrays::compareUnsigned);
    try (IamStore store = IamStore.open(fs, dir, StoreModelTest.smallOptions(1), BytewiseComparator.INSTANCE)) {
      for (int i = 0; i < 2000; i++) {
        byte[] v = ("v" + i).repeat(20).getBytes(StandardCharsets.UTF_8);
        store.put(k(i), v);
        model.put(k(i), v);
      }
      store.flushAndSettle(); // start from an empty memtable and no pending flush
      // From now on every table write or sync fails: flushes and compactions cannot finish.
      fs.failWhen((op, path) -> path.getFileName().toString().endsWith(".mst")
          && (op == FaultInjectingFs.Op.WRITE || op == FaultInjectingFs.Op.SYNC));
      // About 181 bytes per entry, 362 per 64 KiB memtable: 450 entries fill the memtable once (a
      // flush is attempted and fails) but not the two immutables allowed, so the writer never stalls.
      for (int i = 2000; i < 2450; i++) {
        byte[] v = ("w" + i).repeat(20).getBytes(StandardCharsets.UTF_8);
        store.put(k(i), v);
        model.put(k(i), v);
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (store.statistics().flushFailures.sum() + store.statistics().compactionFailures.sum() == 0
          && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertTrue(fs.injected() > 0, "no fault was injected");
      assertTrue(store.statistics().flushFailures.sum() + store.statistics().compactionFailures.sum() > 0,
          "background work did not notice the faults");
      // Readable and consistent while background work keeps failing.
      for (var e : model.entrySet()) {
        assertArrayEquals(e.getValue(), store.get(e.getKey()));
      }
      fs.heal();
      store.flushAndSettle();
      StoreModelTest.fullCheck(store, model, "after healing");
      assertTrue(store.verify() > 0);
    }
    try (IamStore store = IamStore.open(dir, StoreModelTest.smallOptions(1))) {
      StoreModelTest.fullCheck(store, model, "after reopening");
    }
  }
}
