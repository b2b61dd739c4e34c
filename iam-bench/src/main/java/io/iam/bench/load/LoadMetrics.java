package io.iam.bench.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.iam.bench.util.Json;
import java.util.List;
import java.util.Objects;

/**
 * What a store did during a load, after {@link LoadTarget#settle()}.
 *
 * <p>Write amplification follows the IAM paper: bytes written by flushes and compactions divided
 * by the bytes the user put (keys plus values). The write-ahead log is not counted.
 *
 * @param userBytes key plus value bytes put
 * @param flushBytes bytes written by memtable flushes
 * @param compactionBytesWritten bytes written by compactions (merges)
 * @param diskBytes size of the live table files
 * @param levels the store's levels that hold files or were written to, top (0) first
 * @param engineStats the store's own statistics as text, as the engine prints them (IAM's
 *     {@code IamStore.describe()}, RocksDB's {@code rocksdb.stats}); empty if it has none
 */
public record LoadMetrics(
    long userBytes, long flushBytes, long compactionBytesWritten, long diskBytes, List<LevelMetrics> levels,
    String engineStats) {

  public LoadMetrics {
    levels = List.copyOf(levels);
    Objects.requireNonNull(engineStats, "engineStats");
  }

  /** Flush plus compaction bytes written. */
  public long bytesWritten() {
    return flushBytes + compactionBytesWritten;
  }

  /** {@code (flushBytes + compactionBytesWritten) / userBytes}; 0 before anything was put. */
  public double writeAmplification() {
    return userBytes == 0 ? 0 : (double) bytesWritten() / userBytes;
  }

  /** Live table files over all levels. */
  public int files() {
    return levels.stream().mapToInt(LevelMetrics::files).sum();
  }

  /**
   * Puts {@code levels} into {@code o}: one object per level with {@code level}, {@code files},
   * {@code bytes}, {@code bytesWritten} and {@code writeAmplification}.
   */
  public ObjectNode putLevelsJson(ObjectNode o) {
    Json.array(o, "levels", levels, (level, l) -> level
        .put("level", l.level())
        .put("files", l.files())
        .put("bytes", l.bytes())
        .put("bytesWritten", l.bytesWritten())
        .put("writeAmplification", l.writeAmplification()));
    return o;
  }
}
