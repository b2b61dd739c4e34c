package io.iam.bench.hbase;

import io.iam.bench.host.HostExperiment;
import io.iam.bench.host.HostExperimentProvider;
import java.util.Map;

/**
 * Registers {@link HBaseHostExperiment} as the host {@value HBaseTarget#NAME} of {@code iam
 * host-experiment} ({@code META-INF/services}); each call of {@link #hosts} makes a new experiment,
 * which starts the mini cluster only when it first runs.
 */
public final class HBaseHostProvider implements HostExperimentProvider {

  @Override
  public Map<String, HostExperiment> hosts() {
    return Map.of(HBaseTarget.NAME, new HBaseHostExperiment());
  }
}
