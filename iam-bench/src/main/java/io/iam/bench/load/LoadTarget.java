package io.iam.bench.load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A store under test of {@code iam load}. Everything is called from one thread, but for the load's
 * puts with {@code --writers} above 1 (see {@link #concurrentPuts()}): a load calls {@link #put}
 * for every record, then {@link #settle()}, then {@link #metrics()} and {@link #properties()}.
 * The {@link Phases} after it, each optional, follow in this order: more {@link #put}s of loaded
 * keys, {@link #settle()}, {@link #metrics()}; {@link #get}s; {@link #scan}s; each followed by
 * {@link #properties()}. Last comes {@link #close()}.
 *
 * <p>{@code iam ycsb} uses a target from several threads at once: {@link #put}, {@link #get},
 * {@link #delete} and {@link #scan(byte[], int, Entries)} may then run concurrently with each other,
 * and must be safe to; {@link #settle()}, {@link #metrics()} and {@link #close()} still come when no
 * other call is running.
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
   * Whether {@link #put} may run on several threads at once, as {@code iam load --writers N} calls
   * it for N above 1 (no other call runs meanwhile). False unless a store says so: a load with more
   * than one writer refuses a store that does not.
   */
  default boolean concurrentPuts() {
    return false;
  }

  /**
   * Flushes the memtable and waits until background flushes and compactions are done, at most
   * {@link LoadConfig#settleTimeout()}.
   *
   * @throws SettleTimeoutException if background work is still going on at the timeout
   */
  void settle() throws IOException;

  /**
   * Sends the puts the client still holds to the store, as a YCSB binding's cleanup must at the end
   * of a phase, so that the next phase finds them in the store; nothing by default, since the
   * built-in stores hold none on the client side. Unlike {@link #settle} it waits for no background
   * work.
   */
  default void sendHeldWrites() throws IOException {}

  /** What the store did so far; meant to be called after {@link #settle()}. */
  LoadMetrics metrics() throws IOException;

  /** The newest value of {@code key}, or null if the store has none. */
  byte[] get(byte[] key) throws IOException;

  /** Removes {@code key}; nothing happens if the store has none. */
  void delete(byte[] key) throws IOException;

  /** Takes the entries of a scan, in key order. */
  @FunctionalInterface
  interface Entries {
    void accept(byte[] key, byte[] value);
  }

  /**
   * Reads up to {@code limit} entries in key order, starting at the first key at or after {@code
   * start}: each entry's key and value are fetched, as a range query would return them, and handed
   * to {@code entries}.
   *
   * @return the entries read: {@code limit}, or fewer if the store ran out of keys
   */
  int scan(byte[] start, int limit, Entries entries) throws IOException;

  /** {@link #scan(byte[], int, Entries)} that fetches each entry and drops it. */
  default int scan(byte[] start, int limit) throws IOException {
    return scan(start, limit, (key, value) -> {});
  }

  /**
   * Reads the entries from the first key at or after {@code start} up to and including {@code
   * endInclusive}, in key order, handing each to {@code entries}: a range query, which stops at the
   * first key past the end as an iterator with a bound does. The default pages through {@link
   * #scan(byte[], int, Entries)}, which may read entries past the end; the built-in stores override
   * it with one iterator.
   *
   * @return the entries in the range
   */
  default long scanRange(byte[] start, byte[] endInclusive, Entries entries) throws IOException {
    long[] inRange = {0};
    boolean[] past = {false};
    byte[][] last = {null};
    byte[] from = start;
    for (int page = 64; ; page = Math.min(page * 2, 1 << 16)) {
      int read = scan(from, page, (key, value) -> {
        if (past[0] || java.util.Arrays.compareUnsigned(key, endInclusive) > 0) {
          past[0] = true;
          return;
        }
        entries.accept(key, value);
        inRange[0]++;
        last[0] = key;
      });
      if (past[0] || read < page) {
        break;
      }
      // The next page starts just after the last key taken: that key followed by a 0 byte.
      from = java.util.Arrays.copyOf(last[0], last[0].length + 1);
    }
    return inRange[0];
  }

  /**
   * What the store did for its writes and reads so far, by its own counters ({@link
   * IoCounters#NONE}, the default, if it keeps none): compactions run, bytes they read, data blocks
   * read from files.
   */
  default IoCounters ioCounters() throws IOException {
    return IoCounters.NONE;
  }

  /**
   * The engine's own counters by name (IAM's {@code IamStore.properties()}), of which {@link
   * EngineCounters} picks the tree's shape; empty, the default, if the store has none.
   */
  default Map<String, Number> properties() throws IOException {
    return Map.of();
  }

  @Override
  void close() throws IOException;
}
