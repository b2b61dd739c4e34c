package io.iam.core.engine.leveled;

import com.google.common.util.concurrent.RateLimiter;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionEdit;
import io.iam.core.manifest.VersionSet;
import io.iam.core.memtable.MemTable;
import io.iam.core.tree.CompactionPick;
import io.iam.core.tree.CompactionPicker;
import io.iam.core.tree.LeveledPicker;
import io.iam.core.engine.seam.LevelFilesTree;
import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.seam.StoreParts;
import io.iam.core.engine.seam.TableCache;
import io.iam.core.engine.seam.TableWriter;
import io.iam.core.engine.seam.TreeHost;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * tree=leveled: RocksDB's leveled LSM-tree. A memtable flush writes one level-0 file; {@link
 * LeveledPicker} (or the picker a subclass gives) chooses compactions, which run on the compaction
 * threads over files no other compaction holds, with a cursor per level for round-robin picks.
 * Recovered memtables are written to level 0 during recovery. A subclass (tree=lsbm) may attach
 * more to each compaction's edit ({@link #install}) and read deeper levels its own way.
 */
public class LeveledStoreTree extends LevelFilesTree {

  protected final VersionSet versions;
  protected final StoreCounters stats;
  private final TableWriter writer;
  protected final TreeHost host;
  protected final LeveledPicker picker;
  private final CompactionPicker compactionPicker;
  private final Set<Long> busyFiles = new HashSet<>();
  private final byte[][] cursors;

  /**
   * A leveled tree whose compactions {@code compactionPicker} chooses; {@code picker} is the
   * leveled picker it is built on (the same one, or the one a gear picker wraps).
   */
  protected LeveledStoreTree(StoreParts parts, TreeHost host, LeveledPicker picker, CompactionPicker compactionPicker) {
    super(parts.tables());
    this.versions = parts.versions();
    this.stats = parts.stats();
    this.writer = parts.writer();
    this.host = host;
    this.picker = picker;
    this.compactionPicker = compactionPicker;
    this.cursors = new byte[parts.levels()][];
  }

  /** tree=leveled, compacting as {@code config} says. */
  public static LeveledStoreTree create(StoreParts parts, TreeHost host, LeveledPicker.Config config) {
    LeveledPicker picker = new LeveledPicker(parts.cmp(), config);
    return new LeveledStoreTree(parts, host, picker, picker);
  }

  /** Writes the memtable to a level-0 file now. */
  @Override
  public boolean recoverNow(MemTable table, VersionEdit edit) throws IOException {
    FileMeta meta = writeLevel0(versions.newFileNumber(), table, Long.MAX_VALUE, null, edit);
    if (meta != null) {
      stats.flushBytes.add(meta.fileSize());
      stats.flushes.increment();
    }
    return true;
  }

  @Override
  public int stallFiles(Version v) {
    return v.files(0).size();
  }

  @Override
  public Flush flush(MemTable table, long logNumber) {
    return Flush.of("flush", (nextLog, smallestSnapshot, outputs) -> {
      long fileNumber = host.newOutputNumber();
      outputs.add(fileNumber);
      VersionEdit edit = new VersionEdit().logNumber(nextLog);
      FileMeta meta = writeLevel0(fileNumber, table, smallestSnapshot, host.rateLimiter(), edit);
      versions.logAndApply(edit);
      if (meta != null) {
        stats.flushBytes.add(meta.fileSize());
      }
    });
  }

  /** Writes {@code table} to level-0 file {@code number} and adds it to {@code edit}; null if nothing was kept. */
  private FileMeta writeLevel0(long number, MemTable table, long smallestSnapshot, RateLimiter limiter, VersionEdit edit)
      throws IOException {
    FileMeta meta = writer.write(number, TableCache.iterator(table), smallestSnapshot, false, limiter);
    if (meta != null) {
      edit.add(0, meta);
    }
    return meta;
  }

  @Override
  public void schedule(TreeHost h) {
    while (h.running() < h.threads()) {
      CompactionPick pick = compactionPicker.pick(h.current(), busyFiles, cursors);
      if (pick == null) {
        return;
      }
      for (FileMeta f : pick.allInputs()) {
        busyFiles.add(f.fileNumber());
      }
      h.start("compaction", outputs -> compact(pick, outputs), (failure, outputs) -> {
        for (FileMeta f : pick.allInputs()) {
          busyFiles.remove(f.fileNumber());
        }
        if (failure == null && !pick.inputs().isEmpty()) {
          cursors[pick.level()] = pick.inputs().get(pick.inputs().size() - 1).largest();
        }
      });
    }
  }

  @Override
  public boolean hasWork(Version v) {
    return compactionPicker.pick(v, busyFiles, cursors) != null;
  }

  /** Whether this is tree=lsbm with lsbm-levels=gear: level 2i − 1 holds C_i and level 2i holds C_i′. */
  public boolean gearLevels() {
    return false;
  }

  private void compact(CompactionPick pick, List<Long> outputs) throws IOException {
    long smallestSnapshot = host.smallestSnapshot();
    VersionEdit edit = new VersionEdit();
    for (FileMeta f : pick.inputs()) {
      edit.remove(pick.level(), f.fileNumber());
    }
    for (FileMeta f : pick.nextLevelInputs()) {
      edit.remove(pick.outputLevel(), f.fileNumber());
    }
    if (pick.trivialMove()) {
      for (FileMeta f : pick.inputs()) {
        edit.add(pick.outputLevel(), f);
      }
      install(edit, pick, 0);
      stats.trivialMoves.increment();
      stats.moved(pick.outputLevel(), pick.inputBytes());
    } else {
      List<FileMeta> written = writer.compact(pick, smallestSnapshot, isBottommost(pick), host::newOutputNumber,
          outputs, host.rateLimiter());
      for (FileMeta f : written) {
        edit.add(pick.outputLevel(), f);
      }
      long bytes = written.stream().mapToLong(FileMeta::fileSize).sum();
      install(edit, pick, bytes);
      stats.compactions.increment();
      stats.compacted(pick.outputLevel(), pick.inputBytes(), bytes);
    }
  }

  /** Installs a compaction's edit. */
  protected void install(VersionEdit edit, CompactionPick pick, long bytesWritten) throws IOException {
    versions.logAndApply(edit);
  }

  /** Whether no level below the output holds keys in the compaction's range. */
  private boolean isBottommost(CompactionPick pick) {
    Version v = versions.current();
    byte[][] range = picker.userRange(pick.allInputs());
    for (int level = pick.outputLevel() + 1; level < v.numLevels(); level++) {
      if (!v.overlapping(level, range[0], range[1]).isEmpty()) {
        return false;
      }
    }
    return true;
  }
}
