package io.iam.core.engine;

import io.iam.core.engine.seam.TableCache;
import io.iam.core.fs.Fs;
import io.iam.core.manifest.StoreFiles;
import io.iam.core.manifest.VersionSet;
import io.iam.core.util.DaemonThreads;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Deletes the files of a store that no version needs: table files outside the live set, logs below
 * the ones still needed, manifests other than the current one. What is obsolete is decided under
 * the store's mutex ({@link Obsolete}); the files are deleted without it, on the purger's own
 * thread, since unlinking them can take milliseconds each. A purge asked for while one runs runs
 * again after it. Nothing is deleted while the manifest is uncertain (a record that may be on disk
 * could name any file) or that was numbered after the decision.
 */
final class FilePurger {

  private static final System.Logger LOG = System.getLogger(FilePurger.class.getName());

  /**
   * What may be deleted: table files outside {@code live}, logs below {@code logNumber} and {@code
   * oldestImmLog} other than {@code memLog}, manifests other than {@code manifest}. Files numbered
   * from {@code limit} on were created afterwards and are never touched.
   */
  record Obsolete(Set<Long> live, long logNumber, long manifest, long oldestImmLog, long memLog, long limit) {}

  private final Fs fs;
  private final Path dir;
  private final StoreDirectory directory;
  private final TableCache tables;
  private final VersionSet versions;
  private final ReentrantLock mutex;
  private final Condition done;
  private final Supplier<Obsolete> obsoleteLocked;
  private final BooleanSupplier closing;
  private final ExecutorService purger;
  private boolean scheduled;
  private boolean again;

  /**
   * @param obsoleteLocked decides what is obsolete; called holding {@code mutex}
   * @param done signalled, holding {@code mutex}, when a background purge ends
   * @param closing whether the store is closing (no purge is started then)
   */
  FilePurger(Fs fs, Path dir, StoreDirectory directory, TableCache tables, VersionSet versions, ReentrantLock mutex,
      Condition done, Supplier<Obsolete> obsoleteLocked, BooleanSupplier closing) {
    this.fs = fs;
    this.dir = dir;
    this.directory = directory;
    this.tables = tables;
    this.versions = versions;
    this.mutex = mutex;
    this.done = done;
    this.obsoleteLocked = obsoleteLocked;
    this.closing = closing;
    this.purger = Executors.newSingleThreadExecutor(DaemonThreads.named("iam-purge-" + dir.getFileName() + "-"));
  }

  /** Deletes obsolete files now, on the calling thread (at open). */
  void purgeNow() {
    Obsolete o;
    mutex.lock();
    try {
      o = obsoleteLocked.get();
    } finally {
      mutex.unlock();
    }
    purge(o);
  }

  /** Has obsolete files deleted in the background, soon. Holds the mutex. */
  void purgeSoonLocked() {
    if (closing.getAsBoolean()) {
      return;
    }
    if (scheduled) {
      again = true;
      return;
    }
    scheduled = true;
    purger.execute(this::purgeInBackground);
  }

  /** Whether a background purge is scheduled or running. Holds the mutex. */
  boolean runningLocked() {
    return scheduled;
  }

  void shutdown() {
    purger.shutdown();
  }

  boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return purger.awaitTermination(timeout, unit);
  }

  private void purgeInBackground() {
    while (true) {
      Obsolete o;
      mutex.lock();
      try {
        again = false;
        o = obsoleteLocked.get();
      } finally {
        mutex.unlock();
      }
      purge(o);
      mutex.lock();
      try {
        if (!again || closing.getAsBoolean()) {
          scheduled = false;
          done.signalAll();
          return;
        }
      } finally {
        mutex.unlock();
      }
    }
  }

  /** Deletes table files no version needs, logs already flushed, and old manifests. */
  private void purge(Obsolete o) {
    if (versions.manifestUncertain()) {
      return; // a record that may be on disk could name any of them; wait for a new manifest
    }
    try {
      directory.tablesMayExist(o.live());
      directory.manifestMayExist(o.manifest());
      StoreDirectory.Names names = directory.forPurge();
      for (long table : names.tables()) {
        if (table < o.limit() && !o.live().contains(table)) {
          tables.evict(table);
          fs.delete(StoreFiles.table(dir, table));
          directory.forgetTable(table);
        }
      }
      for (long log : names.logs()) {
        if (log < o.limit() && log < o.logNumber() && log < o.oldestImmLog() && log != o.memLog()) {
          fs.delete(StoreFiles.log(dir, log));
          directory.forgetLog(log);
        }
      }
      for (long man : names.manifests()) {
        if (man < o.limit() && man != o.manifest()) {
          fs.delete(StoreFiles.manifest(dir, man));
          directory.forgetManifest(man);
        }
      }
    } catch (IOException e) {
      LOG.log(Level.WARNING, "could not delete obsolete files: " + e.getMessage(), e);
    }
  }
}
