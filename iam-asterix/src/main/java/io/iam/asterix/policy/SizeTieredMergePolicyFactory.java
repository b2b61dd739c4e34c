package io.iam.asterix.policy;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/** {@code "merge-policy": {"name": "size-tiered"}}: RocksDB universal-style tiering. */
public final class SizeTieredMergePolicyFactory extends IamMergePolicyFactory {

  private static final long serialVersionUID = 1L;

  public static final String NAME = "size-tiered";

  public SizeTieredMergePolicyFactory() {
    super(NAME, "size-tiered");
  }

  /** Restores the factory from the class identifier AsterixDB persisted. */
  public static IJsonSerializable fromJson(IPersistedResourceRegistry registry, JsonNode json) {
    return new SizeTieredMergePolicyFactory();
  }
}
