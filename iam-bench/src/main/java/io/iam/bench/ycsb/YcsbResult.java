package io.iam.bench.ycsb;

import io.iam.bench.load.LoadMetrics;
import java.util.Optional;

/**
 * A finished {@code iam ycsb}.
 *
 * @param load the load phase
 * @param run the transaction phase, empty for {@value YcsbSpec#LOAD_ONLY}
 * @param metrics the store after both phases and a settle: bytes written by flushes and compactions
 *     over all user bytes put (load and run), disk bytes
 * @param firstError the first failure a store call met, or null
 */
public record YcsbResult(YcsbSpec spec, PhaseResult load, Optional<PhaseResult> run, LoadMetrics metrics,
    String firstError) {

  /** The phase the headline figures are of: the transactions, or the load if it ran alone. */
  public PhaseResult measured() {
    return run.orElse(load);
  }

  /** Failed operations of both phases. */
  public long errors() {
    return load.errors() + run.map(PhaseResult::errors).orElse(0L);
  }
}
