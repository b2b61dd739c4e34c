package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What every leveled store shows after a settled load of distinct, incompressible records. */
final class SettledLoad {

  private SettledLoad() {}

  /**
   * Checks a settled hashed load with the default level-0 trigger.
   *
   * @param tableFiles the store's table files on disk
   * @param levelBaseBytes the capacity of level 1
   */
  static void assertSettled(LoadMetrics m, long tableFiles, long levelBaseBytes) {
    // Every record is flushed once (table files add a little per record), then merged further down.
    assertTrue(m.flushBytes() >= m.userBytes(), m.toString());
    assertTrue(m.flushBytes() < m.userBytes() * 1.1, m.toString());
    assertTrue(m.compactionBytesWritten() > 0, m.toString());
    assertTrue(m.writeAmplification() > 1, m.toString());
    assertEquals((double) m.bytesWritten() / m.userBytes(), m.writeAmplification(), 1e-12);

    // Distinct keys, no compression: everything put is still on disk, in the levels listed.
    assertTrue(m.diskBytes() >= m.userBytes(), m.toString());
    assertEquals(m.diskBytes(), m.levels().stream().mapToLong(LevelMetrics::bytes).sum());
    assertEquals(m.files(), tableFiles);
    assertTrue(m.levels().size() >= 2, m.toString());

    // Settled: level 0 below its trigger, level 1 within its target.
    LevelMetrics l0 = m.levels().get(0);
    assertEquals(0, l0.level());
    assertTrue(l0.files() < LoadConfig.DEFAULT_LEVEL0_COMPACTION_TRIGGER, m.toString());
    m.levels().stream().filter(l -> l.level() == 1)
        .forEach(l1 -> assertTrue(l1.bytes() <= levelBaseBytes, m.toString()));

    for (LevelMetrics l : m.levels()) {
      assertEquals((double) l.bytesWritten() / m.userBytes(), l.writeAmplification(), 1e-12);
    }
  }

  /** Files in {@code dir} whose names end with {@code suffix}. */
  static long files(Path dir, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
    }
  }
}
