package io.iam.bench.asterix;

import io.iam.bench.load.LoadTarget;
import io.iam.bench.load.LoadTargetProvider;
import java.util.Map;

/** Registers {@link AsterixTarget} as the store {@value AsterixTarget#NAME} ({@code META-INF/services}). */
public final class AsterixTargetProvider implements LoadTargetProvider {

  @Override
  public Map<String, LoadTarget.Factory> targets() {
    return Map.of(AsterixTarget.NAME, AsterixTarget::open);
  }
}
