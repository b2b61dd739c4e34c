package io.iam.core.engine.seam;

import io.iam.core.iter.InternalIterator;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionEdit;
import io.iam.core.memtable.MemTable;
import java.io.IOException;
import java.util.List;

/**
 * How a store keeps its data below the memtables: one implementation per tree (leveled, LSbM on
 * leveled, the node trees IAM, LSA and LSM-merge, Min-Max, the stack), each in a package of its
 * own, made by the store's tree factory. The store ({@code IamStore}) owns the write path, the
 * memtables, the log, snapshots, file purges and the lifecycle of background jobs; it asks its tree
 * everything that depends on how files are laid out:
 * where memtables recovered from the log go, what the write stall counts, how a read finds a key in the
 * files, what a memtable flush does, which background jobs are due, and whether the tree has
 * settled. A tree never takes the store's mutex itself; methods documented "holds the mutex" are
 * called with it held, the others without it.
 */
public interface StoreTree extends AutoCloseable {

  /** A read's ticket for a tree that tracks its readers ({@link #openRead}). */
  long NO_TICKET = 0;

  /**
   * A memtable rebuilt from the log at open, oldest first: written into the tree now with its files
   * added to {@code edit} (true), or left to the background flush like any other memtable (false).
   */
  default boolean recoverNow(MemTable table, VersionEdit edit) throws IOException {
    return false; // flushed in the background like any other; its logs stay until then
  }

  /** After recovery and the first purge, before the first background job. */
  default void opened() {}

  /** The files the write stall triggers count ({@code level0-slowdown/stop-trigger}). Holds the mutex. */
  int stallFiles(Version v);

  /**
   * Whether a read must take a ticket ({@link #openRead}) under the store's mutex before it pins
   * its version; otherwise reads take no lock.
   */
  default boolean readsTakeTicket() {
    return false;
  }

  /** A read's ticket, if {@link #readsTakeTicket}. Holds the mutex. */
  default long openRead() {
    return NO_TICKET;
  }

  /** Ends the read that took {@code ticket}. */
  default void closeRead(long ticket) {}

  /**
   * The newest value of {@code key} at or below {@code sequence} in the files of {@code v}, or
   * null if they do not hold it or hold its deletion.
   *
   * @param latest whether the read asks for the latest data (no snapshot)
   */
  byte[] get(Version v, byte[] key, long sequence, boolean latest) throws IOException;

  /**
   * Adds to {@code children} the iterators over the files of {@code v}, newest data first.
   *
   * @param latest whether the scan reads the latest data (no snapshot)
   * @param upperBound the user key the scan stops before, or null; a tree may use it to open less
   */
  void addIterators(Version v, boolean latest, byte[] upperBound, List<InternalIterator> children) throws IOException;

  /** Counts a scan's seek, for trees that keep their own read counters. */
  default void countSeek() {}

  /**
   * The flush of {@code table}, the oldest immutable memtable, whose records begin in log {@code
   * logNumber}. Called without the mutex, once per flush.
   */
  Flush flush(MemTable table, long logNumber);

  /** Starts the background jobs that are due while {@code host} has free threads. Holds the mutex. */
  void schedule(TreeHost host);

  /** Whether a background job would be due now, were a thread free. Holds the mutex. */
  boolean hasWork(Version v);

  /**
   * Runs the tree's periodic maintenance now (LSbM's buffer trim) and returns the number of files
   * it removed; 0 for trees that have none.
   */
  default int maintainNow() throws IOException {
    return 0;
  }

  /** Stops the tree's own threads. Background jobs have stopped when it is called. */
  @Override
  default void close() {}

  /** One memtable flush, as the store runs it: started under the mutex, run without, ended under it. */
  interface Flush {

    /** What the flush is called in messages. */
    String name();

    /**
     * Whether it can start now, reserving what it writes, having waited {@code waitedNanos} so far (0
     * at the first ask); false makes the store wait for background work, at most until the flush's
     * {@link #patienceNanos}, and ask again. Holds the mutex.
     */
    default boolean tryStart(long waitedNanos) {
      return true;
    }

    /**
     * After how long a wait {@link #tryStart} takes terms it refuses before (a full node written into
     * anyway); the store asks again by then. {@link Long#MAX_VALUE}: none.
     */
    default long patienceNanos() {
      return Long.MAX_VALUE;
    }

    /**
     * Writes the flush and installs it, with {@code nextLog} as the oldest log still needed; lists
     * every file it writes in {@code outputs}.
     */
    void run(long nextLog, long smallestSnapshot, List<Long> outputs) throws IOException;

    /** After {@link #run}: {@code failure} is null if it succeeded. Holds the mutex. */
    default void ended(IOException failure) {}

    /** A flush called {@code name} that needs no reservation and has nothing to release. */
    static Flush of(String name, Body body) {
      return new Flush() {
        @Override
        public String name() {
          return name;
        }

        @Override
        public void run(long nextLog, long smallestSnapshot, List<Long> outputs) throws IOException {
          body.run(nextLog, smallestSnapshot, outputs);
        }
      };
    }

    /** The work of a flush, as {@link #run}. */
    @FunctionalInterface
    interface Body {
      void run(long nextLog, long smallestSnapshot, List<Long> outputs) throws IOException;
    }
  }
}
