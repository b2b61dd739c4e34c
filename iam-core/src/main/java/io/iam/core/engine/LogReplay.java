package io.iam.core.engine;

import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.memtable.MemTable;
import io.iam.core.manifest.StoreFiles;
import io.iam.core.wal.LogReader;
import io.iam.core.wal.RecoveryMode;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Replays a store's write-ahead logs into memtables when it opens (RocksDB's {@code
 * RecoverLogFiles}). Every log numbered at or above the manifest's log number is read in order;
 * batches whose every sequence number is already in table files are skipped; the rest fill
 * memtables of at most {@code memtable-size}, each handed to a {@link Sink} as it fills, and the
 * last one at the end.
 *
 * <p>The {@link LogReader} decides, by the {@link RecoveryMode}, which damage fails the open
 * (corruption followed by valid records, or any damage with {@code absolute-consistency}) and
 * which it drops and reports (a torn tail; every bad region with {@code skip-corrupted-records}).
 * A log it dropped bytes from is cut back to its valid length and synced. With {@code
 * tolerate-corrupted-tail}, a damaged log that is not the newest also ends the replay: the newer
 * logs are deleted, so that the store recovers to a point in time. A batch that does not decode
 * is an {@link IOException} naming the log and the offset.
 */
final class LogReplay {

  /** Same name as the store's own logger, so that operators find recovery's warnings there. */
  private static final System.Logger LOG = System.getLogger(IamStore.class.getName());

  /** Takes each memtable the replay rebuilds, with the number of the first log it came from. */
  @FunctionalInterface
  interface Sink {
    void accept(MemTable table, long firstLogNumber) throws IOException;
  }

  /**
   * What a replay found.
   *
   * @param lastSequence the largest sequence number seen, or the manifest's if larger
   * @param logs the numbers of the logs that remain, oldest first (the replayed ones, less any a
   *     damaged tail dropped)
   */
  record Result(long lastSequence, List<Long> logs) {}

  private LogReplay() {}

  /**
   * Replays the logs of {@code dir} numbered at least {@code fromLog}.
   *
   * @param lastSequence the manifest's last sequence number
   * @param flushedSequence the largest sequence number already in table files
   */
  static Result replay(Fs fs, Path dir, long fromLog, long lastSequence, long flushedSequence, InternalKeyComparator cmp,
      long memtableSize, RecoveryMode mode, Sink sink) throws IOException {
    List<Long> logs = new ArrayList<>();
    for (Path p : fs.list(dir)) {
      OptionalLong n = StoreFiles.logNumber(p);
      if (n.isPresent() && n.getAsLong() >= fromLog) {
        logs.add(n.getAsLong());
      }
    }
    logs.sort(null);
    long maxSequence = lastSequence;
    MemTable table = new MemTable(cmp);
    long tableLog = -1;
    for (int li = 0; li < logs.size(); li++) {
      long number = logs.get(li);
      Path path = StoreFiles.log(dir, number);
      boolean damaged;
      try (FsFile file = fs.open(path, Fs.Mode.WRITE);
          LogReader reader = new LogReader(file, path, mode)) {
        byte[] record;
        while ((record = reader.next()) != null) {
          long first;
          try {
            first = WriteBatch.sequence(record);
            if (first + WriteBatch.count(record) - 1 <= flushedSequence) {
              // Already in table files: a node tree keeps a log until its last memtable is
              // flushed, so a log can hold memtables flushed before the crash. A batch never
              // spans two memtables, but tree=minmax may have evicted part of one from its
              // cache, so the batch's last number decides.
              maxSequence = Math.max(maxSequence, first);
              continue;
            }
            WriteBatch.replay(record, table);
            maxSequence = Math.max(maxSequence, first + WriteBatch.count(record) - 1);
          } catch (IllegalArgumentException e) {
            throw new IOException(path + ": malformed write batch before offset " + reader.validLength() + ": " + e.getMessage(), e);
          }
          if (tableLog < 0) {
            tableLog = number;
          }
          if (table.approximateBytes() >= memtableSize) {
            sink.accept(table, tableLog);
            table = new MemTable(cmp);
            tableLog = -1;
          }
        }
        damaged = reader.tornTail() || reader.droppedBytes() > 0;
        if (damaged) {
          LOG.log(Level.WARNING, "{0}: dropped {1} damaged or torn bytes; recovered up to offset {2}",
              path, reader.droppedBytes(), reader.validLength());
          file.truncate(reader.validLength());
          file.sync();
        }
      }
      if (damaged && mode == RecoveryMode.TOLERATE_CORRUPTED_TAIL && li + 1 < logs.size()) {
        // Recover to a point in time: the writes after the damage are lost, so the newer logs'
        // writes must go too, or the store would hold later writes without earlier ones. None of
        // them was acknowledged as durable: a synced write syncs the older logs first. (Salvage,
        // skip-corrupted-records, keeps every record that verifies, as it promises.)
        List<Long> newer = new ArrayList<>(logs.subList(li + 1, logs.size()));
        LOG.log(Level.WARNING, "{0} ended damaged: the {1} newer log(s) {2} are dropped", path, newer.size(), newer);
        for (long n : newer) {
          fs.delete(StoreFiles.log(dir, n));
        }
        logs.removeAll(newer);
        break;
      }
    }
    if (!table.isEmpty()) {
      sink.accept(table, tableLog);
    }
    return new Result(maxSequence, logs);
  }
}
