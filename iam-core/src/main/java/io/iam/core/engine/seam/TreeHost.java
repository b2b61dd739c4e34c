package io.iam.core.engine.seam;

import com.google.common.util.concurrent.RateLimiter;
import io.iam.core.manifest.Version;
import java.io.IOException;
import java.util.List;

/**
 * What a {@link StoreTree} gets from its store to schedule and run background jobs: the current
 * version, the compaction threads and the one skeleton every job runs in. Methods documented "holds
 * the mutex" must be called with the store's mutex held; the others take it themselves when they
 * need it.
 */
public interface TreeHost {

  /** The current version. Holds the mutex. */
  Version current();

  /** The compaction threads ({@code background-threads}). */
  int threads();

  /** The background jobs running now (memtable flushes excluded). Holds the mutex. */
  int running();

  /** Whether a memtable flush is running. Holds the mutex. */
  boolean flushRunning();

  /**
   * Starts a background job on a compaction thread; it counts as running until it ends. {@code
   * body} runs without the mutex (not at all if the store is closing), listing every file it
   * writes; {@code end} runs under the mutex with the failure, if any. Afterwards the store deletes
   * what a failed job wrote and backs off before the retry, deletes obsolete files, schedules what
   * is due and wakes the threads waiting for background work. Holds the mutex.
   */
  void start(String what, Body body, End end);

  /** The oldest sequence any reader may still ask for. */
  long smallestSnapshot();

  /** A number for a new table file, registered as a pending output so no purge deletes it. */
  long newOutputNumber();

  /** The compaction rate limit, or null. */
  RateLimiter rateLimiter();

  /** Has the files no version needs deleted in the background, soon. */
  void purgeSoon();

  /** The work of a background job, run without the mutex; it lists every file it writes in {@code outputs}. */
  @FunctionalInterface
  interface Body {
    void run(List<Long> outputs) throws IOException;
  }

  /** The end of a background job, run holding the mutex: {@code failure} is null if it succeeded. */
  @FunctionalInterface
  interface End {
    void ended(IOException failure, List<Long> outputs);

    /** An end with nothing to release. */
    End NOTHING = (failure, outputs) -> {};
  }
}
