package io.iam.core.engine;

/**
 * A consistent view of the store as of one sequence number. Reads at a snapshot see exactly the
 * writes acknowledged before it was taken, however compactions run meanwhile. Release it with
 * {@link #close()}; until then compactions keep the versions it can see.
 */
public final class Snapshot implements AutoCloseable {

  private final long sequence;
  private final IamStore store;
  private boolean closed;

  Snapshot(long sequence, IamStore store) {
    this.sequence = sequence;
    this.store = store;
  }

  public long sequence() {
    return sequence;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      store.release(this);
    }
  }

  synchronized boolean isClosed() {
    return closed;
  }
}
