package io.iam.asterix.policy;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/** {@code "merge-policy": {"name": "minlatency"}}: the static schedule with the least worst-case write amplification for depth k. */
public final class MinLatencyMergePolicyFactory extends IamMergePolicyFactory {

  private static final long serialVersionUID = 1L;

  public static final String NAME = "minlatency";

  public MinLatencyMergePolicyFactory() {
    super(NAME, "minlatency");
  }

  /** Restores the factory from the class identifier AsterixDB persisted. */
  public static IJsonSerializable fromJson(IPersistedResourceRegistry registry, JsonNode json) {
    return new MinLatencyMergePolicyFactory();
  }
}
