package io.iam.core.engine;

import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.seam.StoreTree;
import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.manifest.StoreFiles;
import io.iam.core.manifest.VersionEdit;
import io.iam.core.manifest.VersionSet;
import io.iam.core.memtable.MemTable;
import io.iam.core.wal.LogWriter;
import io.iam.core.wal.RecoveryMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A store's memtables and the logs that hold their writes: the active memtable and its log, the
 * full memtables waiting for their flush (oldest first, each with the first log that holds its
 * writes), and the list reads see. Guarded by the store's mutex, except {@link #readable()} (a
 * volatile snapshot) and {@link #syncClosedLogs()} (the group leader's, without the mutex).
 *
 * <p>A log closed by a memtable switch while it held records not yet synced is remembered; a
 * synced write syncs those first, so it is never durable while an earlier write is not.
 */
final class MemtableLog implements AutoCloseable {

  /** A full memtable waiting for its flush, and the first log that holds its writes. */
  record Immutable(MemTable table, long logNumber) {}

  private final Fs fs;
  private final Path dir;
  private final StoreDirectory directory;
  private final VersionSet versions;
  private final InternalKeyComparator cmp;
  private final StoreCounters stats;
  private final Deque<Immutable> imms = new ArrayDeque<>();
  private MemTable mem;
  private long memLogNumber;
  private FsFile walFile;
  private LogWriter wal;
  /** Whether {@link #wal} holds records not yet synced. Written by the group leader, read under the mutex. */
  private volatile boolean walUnsynced;
  private final List<Long> unsyncedLogs = new ArrayList<>();
  private volatile List<MemTable> readable;

  MemtableLog(Fs fs, Path dir, StoreDirectory directory, VersionSet versions, InternalKeyComparator cmp, StoreCounters stats) {
    this.fs = fs;
    this.dir = dir;
    this.directory = directory;
    this.versions = versions;
    this.cmp = cmp;
    this.stats = stats;
    this.mem = new MemTable(cmp);
    this.readable = List.of(mem);
  }

  /** The memtable writes go to. */
  MemTable active() {
    return mem;
  }

  /** The log of the active memtable. */
  LogWriter log() {
    return wal;
  }

  /** The number of the active memtable's log. */
  long logNumber() {
    return memLogNumber;
  }

  /** Records whether the active log holds records not yet synced (the group leader, after a commit). */
  void unsynced(boolean unsynced) {
    walUnsynced = unsynced;
  }

  /** The memtable and the full ones, newest first, as reads see them. */
  List<MemTable> readable() {
    return readable;
  }

  /** How many full memtables wait for their flush. */
  int immutables() {
    return imms.size();
  }

  /** The oldest full memtable, or null. */
  Immutable oldest() {
    return imms.peekFirst();
  }

  /** The first log of the oldest full memtable, or {@link Long#MAX_VALUE} if none. */
  long oldestImmutableLog() {
    return imms.isEmpty() ? Long.MAX_VALUE : imms.peekFirst().logNumber();
  }

  /**
   * The oldest log still needed once the oldest full memtable is flushed: the next full one's, or
   * the active memtable's. A later switch only adds newer logs.
   */
  long nextLog() {
    return imms.size() > 1 ? new ArrayList<>(imms).get(1).logNumber() : memLogNumber;
  }

  /** Drops the oldest full memtable, after its flush's version was installed. */
  void dropOldest() {
    imms.pollFirst(); // a read that no longer sees the memtable finds its data in the installed version
    publish();
  }

  /**
   * At open: replays every log at or after the manifest's log number ({@link LogReplay}), hands
   * each memtable it rebuilt to {@code tree} ({@link StoreTree#recoverNow}), keeps the others as
   * full memtables for the background flush, and starts a new log. The logs are deleted once
   * nothing rebuilt from them waits for a flush; otherwise they stay until its flush.
   */
  void recover(long memtableSize, RecoveryMode mode, StoreTree tree) throws IOException {
    List<Immutable> recovered = new ArrayList<>();
    VersionEdit edit = new VersionEdit();
    LogReplay.Result replay = LogReplay.replay(fs, dir, versions.logNumber(), versions.lastSequence(),
        versions.flushedSequence(), cmp, memtableSize, mode, (table, logNumber) -> {
          if (!tree.recoverNow(table, edit)) {
            recovered.add(new Immutable(table, logNumber));
          }
        });
    versions.setLastSequence(replay.lastSequence());
    long newLog = versions.newFileNumber();
    openLog(newLog);
    edit.logNumber(recovered.isEmpty() ? newLog : recovered.get(0).logNumber());
    versions.logAndApply(edit);
    if (recovered.isEmpty()) {
      for (long number : replay.logs()) {
        fs.delete(StoreFiles.log(dir, number));
      }
    }
    imms.addAll(recovered);
    publish();
  }

  /**
   * Freezes the active memtable and starts a new one with a new log. The new log is opened first:
   * if that fails, nothing has changed.
   */
  void switchMemtable() throws IOException {
    long frozenLog = memLogNumber;
    openLog(versions.newFileNumber());
    imms.addLast(new Immutable(mem, frozenLog));
    mem = new MemTable(cmp);
    publish();
  }

  /** Opens log {@code number} for the active memtable, closing the previous one. */
  void openLog(long number) throws IOException {
    Path path = StoreFiles.log(dir, number);
    FsFile file = fs.open(path, Fs.Mode.CREATE_NEW);
    directory.logMayExist(number);
    fs.syncDirectory(dir);
    if (wal != null) {
      synchronized (unsyncedLogs) {
        unsyncedLogs.removeIf(n -> n < versions.logNumber()); // flushed: their records are in synced tables
        if (walUnsynced) {
          unsyncedLogs.add(memLogNumber);
        }
      }
      wal.close();
      walFile.close();
    }
    walFile = file;
    wal = new LogWriter(file, path, 0);
    walUnsynced = false;
    memLogNumber = number;
  }

  /**
   * Syncs the closed logs that held records not yet synced and whose memtables may not be flushed
   * yet. A log already deleted needs nothing: its memtable's flush synced its tables first. Called
   * by the group leader, without the mutex, before it syncs the active log.
   */
  void syncClosedLogs() throws IOException {
    List<Long> numbers;
    synchronized (unsyncedLogs) {
      if (unsyncedLogs.isEmpty()) {
        return;
      }
      numbers = List.copyOf(unsyncedLogs);
    }
    for (long n : numbers) {
      try (FsFile f = fs.open(StoreFiles.log(dir, n), Fs.Mode.READ)) {
        f.sync();
        stats.walSyncs.increment();
      } catch (java.nio.file.NoSuchFileException deleted) {
        // flushed and purged meanwhile: nothing was synced
      }
    }
    synchronized (unsyncedLogs) {
      unsyncedLogs.removeAll(numbers);
    }
  }

  private void publish() {
    List<MemTable> memtables = new ArrayList<>();
    memtables.add(mem);
    imms.descendingIterator().forEachRemaining(i -> memtables.add(i.table()));
    readable = List.copyOf(memtables);
  }

  /** Closes the active log; unsynced records stay in it for the next open's recovery. */
  @Override
  public void close() throws IOException {
    if (wal != null) {
      wal.close();
      walFile.close();
    }
  }
}
