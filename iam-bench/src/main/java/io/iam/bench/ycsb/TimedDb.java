package io.iam.bench.ycsb;

import io.iam.bench.load.Latency;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * A {@link DB} that times each call of the one it wraps, for one client thread: a histogram of
 * nanoseconds and a count of results other than {@link Status#OK} per {@link Operation}. It plays
 * the part of YCSB's {@code DBWrapper}, whose figures go to process-wide measurements that one run
 * cannot have to itself. Not thread-safe: one per thread, merged with {@link #addTo}.
 */
final class TimedDb extends DB {

  private final DB db;
  private final Map<Operation, Histogram> nanos = new EnumMap<>(Operation.class);
  private final Map<Operation, Long> errors = new EnumMap<>(Operation.class);

  TimedDb(DB db) {
    this.db = db;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    return timed(Operation.READ, () -> db.read(table, key, fields, result));
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return timed(Operation.SCAN, () -> db.scan(table, startkey, recordcount, fields, result));
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return timed(Operation.UPDATE, () -> db.update(table, key, values));
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return timed(Operation.INSERT, () -> db.insert(table, key, values));
  }

  @Override
  public Status delete(String table, String key) {
    return timed(Operation.DELETE, () -> db.delete(table, key));
  }

  /** Times {@code body}, a whole read-modify-write; it failed if the read or update in it did. */
  void readModifyWrite(Runnable body) {
    long before = errorCount();
    long t0 = System.nanoTime();
    body.run();
    record(Operation.READ_MODIFY_WRITE, System.nanoTime() - t0, errorCount() == before);
  }

  private Status timed(Operation operation, Supplier<Status> call) {
    long t0 = System.nanoTime();
    Status s = call.get();
    record(operation, System.nanoTime() - t0, s.isOk());
    return s;
  }

  private void record(Operation operation, long elapsedNanos, boolean ok) {
    nanos.computeIfAbsent(operation, o -> Latency.newNanosHistogram()).recordValue(elapsedNanos);
    if (!ok) {
      errors.merge(operation, 1L, Long::sum);
    }
  }

  private long errorCount() {
    return errors.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Adds this thread's histograms and error counts to the run's. */
  void addTo(Map<Operation, Histogram> allNanos, Map<Operation, Long> allErrors) {
    nanos.forEach((op, h) -> allNanos.computeIfAbsent(op, o -> Latency.newNanosHistogram()).add(h));
    errors.forEach((op, n) -> allErrors.merge(op, n, Long::sum));
  }
}
