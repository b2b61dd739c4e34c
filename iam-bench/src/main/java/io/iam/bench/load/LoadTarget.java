package io.iam.bench.load;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A store under test of {@code iam load}. A load calls {@link #put} from one thread, then {@link
 * #settle()}, then {@link #metrics()}, then {@link #close()}.
 *
 * <p>To add a store, implement this interface and register its {@link Factory} in {@link
 * LoadTargets}.
 */
public interface LoadTarget extends AutoCloseable {

  /** Opens a store in a directory; registered by name in {@link LoadTargets}. */
  @FunctionalInterface
  interface Factory {
    /**
     * Opens (creates) the store in {@code dir}, which exists and is empty.
     *
     * @param config budgets and layout; {@link LoadConfig#tree()} is the name it was opened under
     */
    LoadTarget open(Path dir, LoadConfig config) throws IOException;
  }

  /**
   * Writes one record. The caller never reuses or changes the arrays afterwards, so the store may
   * keep them.
   */
  void put(byte[] key, byte[] value) throws IOException;

  /**
   * Flushes the memtable and waits until background flushes and compactions are done, at most
   * {@link LoadConfig#settleTimeout()}.
   *
   * @throws SettleTimeoutException if background work is still going on at the timeout
   */
  void settle() throws IOException;

  /** What the store did so far; meant to be called after {@link #settle()}. */
  LoadMetrics metrics() throws IOException;

  @Override
  void close() throws IOException;
}
