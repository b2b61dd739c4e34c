package io.iam.bench.ycsb;

import site.ycsb.DB;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's {@link CoreWorkload}, unchanged but for timing each read-modify-write as a whole when it
 * runs on a {@link TimedDb} (YCSB times it inside the workload, into its process-wide measurements).
 */
final class TimedWorkload extends CoreWorkload {

  @Override
  public void doTransactionReadModifyWrite(DB db) {
    if (db instanceof TimedDb timed) {
      timed.readModifyWrite(() -> super.doTransactionReadModifyWrite(db));
    } else {
      super.doTransactionReadModifyWrite(db);
    }
  }
}
