package io.iam.bench.hbase;

import io.iam.bench.load.LoadTarget;
import io.iam.bench.load.LoadTargetProvider;
import java.util.Map;

/** Registers {@link HBaseTarget} as the store {@value HBaseTarget#NAME} of {@code iam load} and {@code iam ycsb}. */
public final class HBaseTargetProvider implements LoadTargetProvider {

  @Override
  public Map<String, LoadTarget.Factory> targets() {
    return Map.of(HBaseTarget.NAME, HBaseTarget::open);
  }
}
