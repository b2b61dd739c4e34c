package io.iam.bench.ycsb;

import io.iam.bench.load.Latency;
import java.util.List;

/**
 * One phase of a YCSB run: the load (inserts) or the transactions.
 *
 * @param operations the workload's operations run (a read-modify-write is one)
 * @param nanos wall time from the first thread's start to the last thread's end
 * @param byOperation per operation type that ran, in {@link Operation} order
 */
public record PhaseResult(long operations, long nanos, List<OperationStats> byOperation) {

  /** One operation type's count, failures and latency. */
  public record OperationStats(Operation operation, long errors, Latency latency) {}

  public PhaseResult {
    byOperation = List.copyOf(byOperation);
  }

  public double opsPerSecond() {
    return operations / (Math.max(nanos, 1) / 1e9);
  }

  public long millis() {
    return nanos / 1_000_000;
  }

  /** Failed operations of every type. */
  public long errors() {
    return byOperation.stream().mapToLong(OperationStats::errors).sum();
  }
}
