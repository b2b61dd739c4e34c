package io.iam.core.engine;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The queue of a store's writers, for group commit as in LevelDB: the writer at the head commits
 * a group of the queued batches (up to about 1 MiB, and no synced batch behind an unsynced
 * leader), then marks them done and hands the head on. Every method is called holding the store's
 * mutex; waiting releases it.
 */
final class WriterQueue {

  /** A queued write: its batch, whether it must be synced, and its outcome once done. */
  static final class Writer {
    final WriteBatch batch;
    final boolean sync;
    private final Condition cv;
    private boolean done;
    private IOException error;

    private Writer(WriteBatch batch, boolean sync, Condition cv) {
      this.batch = batch;
      this.sync = sync;
      this.cv = cv;
    }

    /** Whether another writer's group committed it. */
    boolean done() {
      return done;
    }

    /** The error its group's commit failed with, or null. */
    IOException error() {
      return error;
    }
  }

  /** The most bytes a leader gathers into its group before it stops adding batches. */
  private static final long MAX_GROUP_BYTES = 1 << 20;

  private final ReentrantLock mutex;
  private final Deque<Writer> writers = new ArrayDeque<>();

  WriterQueue(ReentrantLock mutex) {
    this.mutex = mutex;
  }

  /** Queues {@code batch} and waits until it is done or at the head of the queue. */
  Writer enqueue(WriteBatch batch, boolean sync) {
    Writer w = new Writer(batch, sync, mutex.newCondition());
    writers.addLast(w);
    while (!w.done && writers.peekFirst() != w) {
      w.cv.awaitUninterruptibly();
    }
    return w;
  }

  /** The batches {@code leader}, at the head, commits together: itself first. */
  List<Writer> group(Writer leader) {
    List<Writer> group = new ArrayList<>();
    long size = 0;
    for (Writer x : writers) {
      if (!group.isEmpty() && (size > MAX_GROUP_BYTES || (x.sync && !leader.sync))) {
        break;
      }
      group.add(x);
      size += x.batch.byteSize();
    }
    return group;
  }

  /** Marks {@code group}, at the head of the queue, done with {@code error}, and wakes the next head. */
  void finish(List<Writer> group, Writer leader, IOException error) {
    for (Writer x : group) {
      writers.pollFirst();
      x.done = true;
      x.error = error;
      if (x != leader) {
        x.cv.signal();
      }
    }
    wakeHead();
  }

  /** Takes the head of the queue with no batch, as a writer would (release it with {@link #passTurn}). */
  void takeTurn() {
    enqueue(new WriteBatch(), false);
  }

  /** Gives up the head taken by {@link #takeTurn}. */
  void passTurn() {
    writers.pollFirst();
    wakeHead();
  }

  private void wakeHead() {
    if (!writers.isEmpty()) {
      writers.peekFirst().cv.signal();
    }
  }
}
