package io.iam.core.engine;

import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.seam.TableCache;
import io.iam.core.key.InternalKey;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts, for every scan a store's iterators start, the on-disk sequences it reads from and those
 * whose first block is not cached, in total and per level ({@link Statistics}): what the IAM paper's
 * scan guarantee (at most one uncached sequence per level) is measured by.
 */
final class ScanCounter {

  private final TableCache tables;
  private final StoreCounters stats;

  ScanCounter(TableCache tables, StoreCounters stats) {
    this.tables = tables;
    this.stats = stats;
  }

  /**
   * Counts a scan starting at {@code target} (null: the first key), the on-disk sequences it reads
   * from, and those of them whose first block is not cached: every sequence of the level-0 files,
   * and on each deeper level those of the one file the seek lands in. A sequence whose keys all
   * lie before the seek key reads no block (its in-memory index says so) and is not counted as
   * uncached; before this was settled it was, which inflated the per-level maximum of node trees
   * (a node's small appended sequences often end before the node's range does).
   */
  void count(Version version, byte[] target) {
    byte[] seek = target == null ? null : InternalKey.seekKey(target, InternalKey.MAX_SEQUENCE);
    long sequences = 0;
    long uncached = 0;
    try {
      for (int level = 0; level < version.numLevels(); level++) {
        List<FileMeta> files = level == 0 ? version.files(0) : new ArrayList<>();
        if (level > 0) {
          FileMeta f = version.fileAtOrAfter(level, target);
          if (f != null) {
            files.add(f);
          }
        }
        long levelUncached = 0;
        for (FileMeta f : files) {
          io.iam.core.table.MSTableReader r = tables.reader(f);
          for (int i = 0; i < f.sequenceCount(); i++) {
            sequences++;
            if (r.sequence(i).seekReadsUncachedBlock(seek)) {
              levelUncached++;
            }
          }
        }
        uncached += levelUncached;
        stats.scanUncachedAt(level, levelUncached);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    stats.scans.increment();
    stats.scanSequences.add(sequences);
    stats.scanUncachedSequences.add(uncached);
  }
}
