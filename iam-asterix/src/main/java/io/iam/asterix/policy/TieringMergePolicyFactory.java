package io.iam.asterix.policy;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/** {@code "merge-policy": {"name": "tiering"}}: the Min-Max paper's tiered LSM: up to T-1 runs per level, merged when a level fills. */
public final class TieringMergePolicyFactory extends IamMergePolicyFactory {

  private static final long serialVersionUID = 1L;

  public static final String NAME = "tiering";

  public TieringMergePolicyFactory() {
    super(NAME, "tiering");
  }

  /** Restores the factory from the class identifier AsterixDB persisted. */
  public static IJsonSerializable fromJson(IPersistedResourceRegistry registry, JsonNode json) {
    return new TieringMergePolicyFactory();
  }
}
