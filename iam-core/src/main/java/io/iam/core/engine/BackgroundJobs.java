package io.iam.core.engine;

import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.seam.StoreTree;
import io.iam.core.engine.seam.TableCache;
import io.iam.core.engine.seam.TreeHost;
import com.google.common.util.concurrent.RateLimiter;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionSet;
import io.iam.core.util.DaemonThreads;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The background work of one store: the flush thread, which flushes the oldest full memtable as the
 * store's tree does, and the compaction threads, on which the tree's jobs run. Every job runs in one
 * skeleton ({@link #runJob}): its work without the store's mutex, an unexpected runtime exception
 * becoming an {@link IOException} that names it; then, under the mutex, its outputs leave the
 * pending set, its end runs, a failure is counted, logged, its files deleted and the next attempt
 * backed off (10 ms doubling to 1 s), obsolete files are purged, what is due next is scheduled and
 * the threads waiting for background work are woken. Flushes get their own thread, as in RocksDB,
 * so a long compaction never holds up the memtable writers wait on.
 */
final class BackgroundJobs implements TreeHost {

  private static final System.Logger LOG = System.getLogger(BackgroundJobs.class.getName());
  /** The longest a waiting memtable flush sleeps before it asks the tree again, if nothing wakes it. */
  private static final long MAX_FLUSH_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final ReentrantLock mutex;
  private final Condition done;
  private final VersionSet versions;
  private final TableCache tables;
  private final StoreDirectory directory;
  private final StoreCounters stats;
  private final MemtableLog memtables;
  private final FilePurger purger;
  private final RateLimiter rateLimiter;
  private final BooleanSupplier closing;
  private final LongSupplier smallestSnapshotLocked;
  private final int backgroundThreads;
  private final ExecutorService background;
  private final ExecutorService flusher;
  /** Files jobs are writing: no purge deletes them. */
  private final Set<Long> pendingOutputs = new HashSet<>();
  private StoreTree tree;
  private boolean flushScheduled;
  private boolean flushRunning;
  /** Whether the flush thread waits for the tree to make room for the oldest memtable's flush. */
  private boolean flushWaitsForTree;
  private int compactionsRunning;
  private long retryNanos;

  /**
   * @param done the store's condition for "background work ended", signalled under {@code mutex}
   * @param closing whether the store is closing: no job starts then
   * @param smallestSnapshotLocked the oldest sequence a reader may ask for; called holding {@code mutex}
   */
  BackgroundJobs(String name, int threads, ReentrantLock mutex, Condition done, VersionSet versions, TableCache tables,
      StoreDirectory directory, StoreCounters stats, MemtableLog memtables, FilePurger purger, RateLimiter rateLimiter,
      BooleanSupplier closing, LongSupplier smallestSnapshotLocked) {
    this.mutex = mutex;
    this.done = done;
    this.versions = versions;
    this.tables = tables;
    this.directory = directory;
    this.stats = stats;
    this.memtables = memtables;
    this.purger = purger;
    this.rateLimiter = rateLimiter;
    this.closing = closing;
    this.smallestSnapshotLocked = smallestSnapshotLocked;
    this.backgroundThreads = threads;
    this.background = Executors.newFixedThreadPool(threads, DaemonThreads.named("iam-compaction-" + name + "-"));
    this.flusher = Executors.newSingleThreadExecutor(DaemonThreads.named("iam-flush-" + name + "-"));
  }

  /** The tree whose flushes and jobs these are; set once, before the first job. */
  void attach(StoreTree storeTree) {
    this.tree = storeTree;
  }

  /**
   * Whether anything is due or running: a full memtable, a flush, a job, a purge, or a job the tree
   * would start. Holds the mutex.
   */
  boolean busyLocked() {
    return memtables.immutables() > 0 || flushScheduled || compactionsRunning > 0 || purger.runningLocked()
        || tree.hasWork(versions.current());
  }

  /** Whether the memtable flush waits for the tree to make room before it can start. Holds the mutex. */
  boolean flushWaitsForTreeLocked() {
    return flushWaitsForTree;
  }

  /** Adds the files jobs are writing to {@code live}. Holds the mutex. */
  void addPendingTo(Set<Long> live) {
    live.addAll(pendingOutputs);
  }

  /** Stops taking jobs; running ones finish. */
  void shutdown() {
    background.shutdown();
    flusher.shutdown();
  }

  boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return background.awaitTermination(timeout, unit) && flusher.awaitTermination(timeout, unit);
  }

  private long smallestSnapshotNow() {
    mutex.lock();
    try {
      return smallestSnapshotLocked.getAsLong();
    } finally {
      mutex.unlock();
    }
  }

  // ---------------------------------------------------------------- TreeHost
  @Override
  public Version current() {
    return versions.current();
  }

  @Override
  public int threads() {
    return backgroundThreads;
  }

  @Override
  public int running() {
    return compactionsRunning;
  }

  @Override
  public boolean flushRunning() {
    return flushRunning;
  }

  @Override
  public void start(String what, Body body, End end) {
    compactionsRunning++;
    background.execute(() -> runJob(what, outputs -> {
      if (!closing.getAsBoolean()) {
        body.run(outputs);
      }
    }, (failure, outputs) -> {
      end.ended(failure, outputs);
      compactionEnded(failure, outputs, what);
    }));
  }

  @Override
  public long smallestSnapshot() {
    return smallestSnapshotNow();
  }

  @Override
  public long newOutputNumber() {
    return allocateOutput();
  }

  @Override
  public RateLimiter rateLimiter() {
    return rateLimiter;
  }

  @Override
  public void purgeSoon() {
    mutex.lock();
    try {
      purger.purgeSoonLocked();
    } finally {
      mutex.unlock();
    }
  }

  // ---------------------------------------------------------------- jobs

  /** Starts a flush or compaction if one is due and a thread is free. Holds the mutex. */
  void scheduleLocked() {
    if (closing.getAsBoolean()) {
      return;
    }
    if (memtables.immutables() > 0 && !flushScheduled) {
      flushScheduled = true;
      flusher.execute(this::flushInBackground);
    }
    tree.schedule(this);
  }

  /**
   * The one skeleton of every background job (flushes, compactions, node-tree jobs, min-max
   * sorts): runs {@code body} without the mutex, an unexpected runtime exception becoming an
   * {@link IOException} that names {@code what}; then, holding the mutex, releases the job's
   * outputs from the pending set, runs {@code end}, deletes the files that became obsolete,
   * schedules what is due next and wakes the threads waiting for background work. Called without
   * the mutex.
   */
  private void runJob(String what, TreeHost.Body body, TreeHost.End end) {
    List<Long> outputs = java.util.Collections.synchronizedList(new ArrayList<>());
    IOException failure = null;
    try {
      body.run(outputs);
    } catch (IOException e) {
      failure = e;
    } catch (RuntimeException e) {
      failure = new IOException(what + " failed unexpectedly", e);
    } finally {
      mutex.lock();
      try {
        pendingOutputs.removeAll(outputs);
        end.ended(failure, outputs);
        purger.purgeSoonLocked();
        scheduleLocked();
        done.signalAll();
      } finally {
        mutex.unlock();
      }
    }
  }

  /**
   * Flushes the oldest immutable memtable as the tree does ({@link StoreTree#flush}): waits until
   * the tree can start it, runs it without the mutex, then drops the memtable or backs off.
   */
  private void flushInBackground() {
    MemtableLog.Immutable imm;
    mutex.lock();
    try {
      imm = flushCandidateLocked();
      if (imm == null) {
        return;
      }
    } finally {
      mutex.unlock();
    }
    StoreTree.Flush flush = tree.flush(imm.table(), imm.logNumber());
    long smallestSnapshot;
    long nextLog;
    mutex.lock();
    try {
      long waitStart = 0;
      while (!flush.tryStart(waitStart == 0 ? 0 : System.nanoTime() - waitStart)) {
        if (waitStart == 0) {
          waitStart = System.nanoTime();
          flushWaitsForTree = true;
        }
        if (closing.getAsBoolean()) {
          flushWaitsForTree = false;
          flushScheduled = false;
          return;
        }
        scheduleLocked();
        try {
          long untilPatience = flush.patienceNanos() - (System.nanoTime() - waitStart);
          done.await(Math.max(1_000_000L, Math.min(MAX_FLUSH_WAIT_NANOS, untilPatience)), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          flushWaitsForTree = false;
          flushScheduled = false;
          return;
        }
      }
      if (waitStart != 0) {
        flushWaitsForTree = false;
        stats.flushWaitNanos.add(System.nanoTime() - waitStart);
      }
      flushRunning = true;
      smallestSnapshot = smallestSnapshotLocked.getAsLong();
      nextLog = memtables.nextLog();
    } finally {
      mutex.unlock();
    }
    runJob(flush.name(), outputs -> flush.run(nextLog, smallestSnapshot, outputs), (failure, outputs) -> {
      flushRunning = false;
      flush.ended(failure);
      flushEnded(failure, outputs);
    });
  }

  /** The oldest immutable memtable, or null (the flush is then off) if none or the store closes. Holds {@code mutex}. */
  private MemtableLog.Immutable flushCandidateLocked() {
    MemtableLog.Immutable imm = memtables.oldest();
    if (imm == null || closing.getAsBoolean()) {
      flushScheduled = false;
      return null;
    }
    return imm;
  }

  /** After a flush: drops the memtable if it succeeded, else backs off for a retry. Holds {@code mutex}. */
  private void flushEnded(IOException failure, List<Long> outputs) {
    if (failure == null) {
      memtables.dropOldest();
      retryNanos = 0;
      stats.flushes.increment();
    } else {
      failed("flush", failure, outputs, stats.flushFailures);
    }
    flushScheduled = false;
  }

  /**
   * After a failed job: counts it, logs it, deletes what it wrote and backs off before the retry.
   * Holds {@code mutex}.
   */
  private void failed(String what, IOException failure, List<Long> outputs, LongAdder failures) {
    failures.increment();
    LOG.log(Level.WARNING, what + " failed; will retry: " + failure.getMessage(), failure);
    discard(outputs);
    backoff();
  }

  /** Sleeps before retrying failed background work, doubling up to one second. Holds {@code mutex}. */
  private void backoff() {
    retryNanos = Math.min(TimeUnit.SECONDS.toNanos(1), Math.max(TimeUnit.MILLISECONDS.toNanos(10), retryNanos * 2));
    try {
      done.await(retryNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * After a compaction, node-tree job or min-max sort ended: frees its thread; after a failure
   * (unless the store closes), deletes what it wrote and backs off before the retry. Holds {@code
   * mutex}.
   */
  private void compactionEnded(IOException failure, List<Long> outputs, String what) {
    compactionsRunning--;
    if (failure != null && !closing.getAsBoolean()) {
      failed(what, failure, outputs, stats.compactionFailures);
    }
  }

  /**
   * Deletes the files a failed flush or compaction wrote, unless a failed manifest write may have
   * recorded them: then they stay until a new manifest is written, and the purge removes them.
   */
  private void discard(List<Long> outputs) {
    if (!versions.manifestUncertain()) {
      outputs.forEach(tables::discard);
    }
  }

  /**
   * A number for a new table file, registered as a pending output in the same step (no purge
   * deletes it, and later ones consider it), so a purge that sees the number allocated also sees
   * it pending.
   */
  private long allocateOutput() {
    mutex.lock();
    try {
      long n = versions.newFileNumber();
      pendingOutputs.add(n);
      directory.tableMayExist(n);
      return n;
    } finally {
      mutex.unlock();
    }
  }

  // ---------------------------------------------------------------- files
}
