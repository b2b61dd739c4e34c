package io.iam.bench.host;

import java.io.IOException;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The bounded-depth experiment run in a real host (AsterixDB, HBase): one store under a merge
 * policy takes {@code flushes} flushes of equal size, and the host reports what it wrote. Hosts
 * live in their own modules and are found with {@link java.util.ServiceLoader} ({@link
 * HostExperimentProvider}); {@code iam host-experiment --host NAME} runs them. One experiment object
 * may run several specs one after another (a sweep); it may keep its host running between them and
 * stops it in {@link #close}.
 */
public interface HostExperiment extends AutoCloseable {

  /**
   * What to run.
   *
   * @param policy the merge policy's name, as {@code iam policies} lists it
   * @param options the policy's options under iam-core's keys ({@code max-components} for k)
   * @param flushes the flushes to make
   * @param recordsPerFlush distinct new records written before each flush
   * @param valueBytes the value size of each record
   * @param nodes the host's nodes the store is partitioned over (AsterixDB's node controllers),
   *     each partition running the policy on its own and flushing {@code flushes} times; 1 for one
   *     store on one node
   */
  record Spec(String policy, Map<String, String> options, int flushes, int recordsPerFlush, int valueBytes,
      int nodes) {

    public Spec {
      if (nodes < 1) {
        throw new IllegalArgumentException("an experiment runs on at least one node: " + nodes);
      }
    }

    /** A spec of one store on one node. */
    public Spec(String policy, Map<String, String> options, int flushes, int recordsPerFlush, int valueBytes) {
      this(policy, options, flushes, recordsPerFlush, valueBytes, 1);
    }
  }

  /**
   * Runs the experiment.
   *
   * @param progress told the flushes done so far
   * @throws IOException if the host fails
   */
  HostRun run(Spec spec, LongConsumer progress) throws IOException;

  /**
   * How many runs of this object may go side by side, from several threads (a sweep's {@code
   * --parallel}); 1, the default, means runs must not overlap.
   */
  default int maxParallelRuns() {
    return 1;
  }

  /** Stops what the runs kept running; nothing by default. */
  @Override
  default void close() throws IOException {}
}
