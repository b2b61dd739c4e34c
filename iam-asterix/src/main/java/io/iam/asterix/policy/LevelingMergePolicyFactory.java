package io.iam.asterix.policy;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/** {@code "merge-policy": {"name": "leveling"}}: the Min-Max paper's leveled LSM: one run per level, merged with every flush that reaches it. */
public final class LevelingMergePolicyFactory extends IamMergePolicyFactory {

  private static final long serialVersionUID = 1L;

  public static final String NAME = "leveling";

  public LevelingMergePolicyFactory() {
    super(NAME, "leveling");
  }

  /** Restores the factory from the class identifier AsterixDB persisted. */
  public static IJsonSerializable fromJson(IPersistedResourceRegistry registry, JsonNode json) {
    return new LevelingMergePolicyFactory();
  }
}
