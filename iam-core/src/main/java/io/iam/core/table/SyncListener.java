package io.iam.core.table;

/**
 * Told around each sync a table writer makes, so that the caller can let other work run while this
 * thread waits for the disk. Both calls come from the writer's thread, and {@link #afterSync}
 * follows every {@link #beforeSync}, also when the sync fails.
 */
public interface SyncListener {

  /** The writer is about to wait for the disk. */
  void beforeSync();

  /** The wait is over; the writer goes on once this returns. */
  void afterSync();
}
