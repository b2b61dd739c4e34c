package io.iam.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import site.ycsb.workloads.CoreWorkload;

/** Every workload, run by YCSB's CoreWorkload through the runner, on IAM's engine and on RocksDB. */
class YcsbRunnerTest {

  private static final int RECORDS = 2_000;
  private static final int OPERATIONS = 2_000;
  /** A small memtable, so that both phases flush and compact. */
  private static final long MEMTABLE = 256 << 10;
  private static final long CACHE = 1 << 20;

  @TempDir Path tmp;

  static Stream<Arguments> engineAndWorkload() {
    return Stream.of("iam", "rocksdb")
        .flatMap(engine -> Workloads.NAMES.stream().map(w -> Arguments.of(engine, w)));
  }

  private static Map<Operation, Long> counts(PhaseResult p) {
    Map<Operation, Long> c = new EnumMap<>(Operation.class);
    p.byOperation().forEach(o -> c.put(o.operation(), o.latency().count()));
    return c;
  }

  @ParameterizedTest(name = "{0} workload {1}")
  @MethodSource("engineAndWorkload")
  void workloadCompletesWithoutErrors(String engine, String workload) throws Exception {
    Path dir = tmp.resolve(engine + "-" + workload);
    YcsbResult r = YcsbRunner.run(new YcsbSpec(engine, workload, RECORDS, OPERATIONS, 1, dir, MEMTABLE, CACHE), false);

    assertEquals(0, r.errors(), r.firstError());
    assertNull(r.firstError());
    assertEquals(RECORDS, r.load().operations());
    assertEquals(Map.of(Operation.INSERT, (long) RECORDS), counts(r.load()));
    PhaseResult run = r.run().orElseThrow();
    assertEquals(OPERATIONS, run.operations());

    // Each operation of the mix ran, and no other; a read-modify-write also counts its read and update.
    Properties p = Workloads.of(workload);
    Map<Operation, Long> c = counts(run);
    Map<Operation, String> proportion = Map.of(Operation.READ, CoreWorkload.READ_PROPORTION_PROPERTY,
        Operation.UPDATE, CoreWorkload.UPDATE_PROPORTION_PROPERTY, Operation.INSERT,
        CoreWorkload.INSERT_PROPORTION_PROPERTY, Operation.SCAN, CoreWorkload.SCAN_PROPORTION_PROPERTY,
        Operation.READ_MODIFY_WRITE, CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY);
    long rmw = c.getOrDefault(Operation.READ_MODIFY_WRITE, 0L);
    proportion.forEach((op, key) -> {
      boolean inMix = Double.parseDouble(p.getProperty(key, "0")) > 0;
      boolean viaRmw = rmw > 0 && (op == Operation.READ || op == Operation.UPDATE);
      assertEquals(inMix || viaRmw, c.containsKey(op), workload + " " + op + " " + c);
    });
    assertFalse(c.containsKey(Operation.DELETE));
    long topLevel = c.values().stream().mapToLong(Long::longValue).sum() - 2 * rmw;
    assertEquals(OPERATIONS, topLevel, c.toString());

    assertTrue(r.metrics().bytesWritten() > 0, "the small memtable was flushed: " + r.metrics());
    assertTrue(r.metrics().writeAmplification() >= 1, "every byte put reaches a table: " + r.metrics());
    assertTrue(r.metrics().diskBytes() > 0);
    assertFalse(SharedStore.isOpen(dir), "the runner's reference was the last");
  }

  @Test
  void clientThreadsShareTheStoreAndSplitTheOperations() throws Exception {
    YcsbResult r = YcsbRunner.run(new YcsbSpec("lsa", "a", 1_001, 999, 3, tmp.resolve("threads"), MEMTABLE, CACHE),
        false);
    assertEquals(0, r.errors(), r.firstError());
    assertEquals(1_001, r.load().operations());
    assertEquals(999, r.run().orElseThrow().operations());
  }

  @Test
  void loadOnlyRunsNoTransactions() throws Exception {
    YcsbResult r = YcsbRunner.run(new YcsbSpec("rocksdb-universal", YcsbSpec.LOAD_ONLY, 1_500, 0, 2,
        tmp.resolve("load"), MEMTABLE, CACHE), false);
    assertEquals(0, r.errors(), r.firstError());
    assertTrue(r.run().isEmpty());
    assertEquals(r.load(), r.measured());
    assertEquals(1_500, r.load().operations());
  }
}
