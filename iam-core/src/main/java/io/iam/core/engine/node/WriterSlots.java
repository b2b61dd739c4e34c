package io.iam.core.engine.node;

import io.iam.core.table.SyncListener;
import java.util.concurrent.Semaphore;

/**
 * Bounds how many writers of one pool do CPU work (merging, encoding, filling the cache) at once.
 * A writer holds a slot from {@link #enter} to {@link #leave} and gives it up while it waits for a
 * sync, so with one slot a node flush's children are encoded strictly one after another while the
 * syncs of those already written overlap, as the kernel's writeback overlaps a single RocksDB
 * compaction thread's writes.
 */
final class WriterSlots implements SyncListener {

  private final Semaphore slots;

  WriterSlots(int slots) {
    if (slots < 1) {
      throw new IllegalArgumentException("slots must be at least 1: " + slots);
    }
    this.slots = new Semaphore(slots, true);
  }

  /** Waits for a slot. */
  void enter() {
    slots.acquireUninterruptibly();
  }

  /** Gives the slot back. */
  void leave() {
    slots.release();
  }

  @Override
  public void beforeSync() {
    leave();
  }

  @Override
  public void afterSync() {
    enter();
  }
}
