package io.iam.bench.asterix;

import io.iam.bench.host.HostExperiment;
import io.iam.bench.host.HostExperimentProvider;
import java.util.Map;

/** Registers {@link AsterixHostExperiment} as the host {@value AsterixTarget#NAME} ({@code META-INF/services}). */
public final class AsterixHostProvider implements HostExperimentProvider {

  @Override
  public Map<String, HostExperiment> hosts() {
    return Map.of(AsterixTarget.NAME, new AsterixHostExperiment());
  }
}
