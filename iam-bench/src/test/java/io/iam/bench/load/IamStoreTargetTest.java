package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.engine.IamStore;
import io.iam.core.engine.StoreOptions;
import io.iam.core.engine.TreeKind;
import io.iam.core.option.InvalidOptionsException;
import io.iam.core.option.OptionValues;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IamStoreTargetTest {

  private static final int RECORDS = 20_000;
  private static final long MEMTABLE = 1 << 20;

  @Test
  void theTreeComesFromTheNameAndTheBudgetsFromTheConfig() {
    LoadConfig config = new LoadConfig(IamStoreTarget.LEVELED, 2 << 20, 24 << 20, 9, 3 << 20, 11 << 20, 8, 5, 3,
        true, Duration.ofSeconds(30), java.util.Map.of());

    OptionValues o = IamStoreTarget.options(config);

    assertEquals(TreeKind.LEVELED, o.get(StoreOptions.TREE));
    assertEquals(2L << 20, o.get(StoreOptions.MEMTABLE_SIZE));
    assertEquals(1, o.get(StoreOptions.MAX_IMMUTABLE_MEMTABLES), "two memtables, as RocksDB's");
    assertEquals(24L << 20, o.get(StoreOptions.BLOCK_CACHE_SIZE));
    assertEquals(9, o.get(StoreOptions.BLOOM_BITS_PER_KEY));
    assertEquals(3L << 20, o.get(StoreOptions.TARGET_FILE_SIZE));
    assertEquals(11L << 20, o.get(StoreOptions.LEVEL_BASE_SIZE));
    assertEquals(8, o.get(StoreOptions.LEVEL_SIZE_RATIO));
    assertEquals(5, o.get(StoreOptions.L0_COMPACTION_TRIGGER));
    assertEquals(3, o.get(StoreOptions.BACKGROUND_THREADS));
    assertEquals(StoreOptions.L0_SLOWDOWN_TRIGGER.defaultValue(), o.get(StoreOptions.L0_SLOWDOWN_TRIGGER));
  }

  @Test
  void theEngineRefusesTreesAndBudgetsItDoesNotHave() {
    InvalidOptionsException tree = assertThrows(InvalidOptionsException.class,
        () -> IamStoreTarget.options(LoadConfig.defaults("no-such-tree", MEMTABLE, MEMTABLE)));
    assertTrue(tree.getMessage().startsWith("no-such-tree: tree='no-such-tree' is not valid"), tree.getMessage());

    InvalidOptionsException small = assertThrows(InvalidOptionsException.class,
        () -> IamStoreTarget.options(LoadConfig.defaults(IamStoreTarget.LEVELED, 1024, MEMTABLE)));
    assertEquals(3, small.problems().size(), small.problems().toString());
    assertTrue(small.getMessage().startsWith("leveled: memtable-size=1KiB is out of range"), small.getMessage());
    assertTrue(small.getMessage().contains("target-file-size=1KiB is out of range"), small.getMessage());
    assertTrue(small.getMessage().contains("level-base-size=5KiB is out of range"), small.getMessage());
  }

  @Test
  void hashedLoadIsCompactedIntoLevelsAndReadsBack(@TempDir Path dir) throws IOException {
    LoadConfig config = LoadConfig.defaults(IamStoreTarget.LEVELED, MEMTABLE, 8 << 20);

    // The runner checks that the store counted every key and value put.
    LoadMetrics m = LoadRunner.run(IamStoreTarget::open, dir, config, workload(), false).metrics();

    SettledLoad.assertSettled(m, SettledLoad.files(dir, ".mst"), 5 * MEMTABLE);
    // The engine counts the bytes written into each level exactly: level 0's are the flushes'.
    assertEquals(m.flushBytes(), m.levels().get(0).bytesWritten());
    assertEquals(m.bytesWritten(), m.levels().stream().mapToLong(LevelMetrics::bytesWritten).sum());
    assertTrue(m.engineStats().startsWith("Level"), m.engineStats());

    // The load is in the store: reopened, every key has its value.
    LoadWorkload again = workload();
    try (IamStore store = IamStore.open(dir, IamStoreTarget.options(config))) {
      for (long n = 0; n < RECORDS; n++) {
        assertArrayEquals(again.nextValue(), store.get(again.key(n)), "record " + n);
      }
    }
  }

  @Test
  void getsAndScansSeeTheNewestValuesInKeyOrder(@TempDir Path dir) throws IOException {
    ReadsAndScans.check(IamStoreTarget::open, IamStoreTarget.LEVELED, dir);
  }

  @Test
  void theEnginesPropertiesAreTheStores(@TempDir Path dir) throws IOException {
    LoadConfig config = LoadConfig.defaults(IamStoreTarget.LEVELED, 64 << 10, 1 << 20);
    try (IamStoreTarget target = IamStoreTarget.open(dir, config)) {
      target.put("k".getBytes(), new byte[100]);
      target.settle();
      Map<String, Number> p = target.properties();
      assertEquals(target.metrics().diskBytes(), p.get("disk.bytes").longValue());
      assertEquals(1L, p.get("user.writes").longValue());
    }
  }

  private static LoadWorkload workload() {
    return new LoadWorkload(RECORDS, 1024, KeyOrder.HASH, 42);
  }
}
