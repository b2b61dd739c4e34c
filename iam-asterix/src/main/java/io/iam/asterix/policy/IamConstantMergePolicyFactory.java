package io.iam.asterix.policy;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/** {@code "merge-policy": {"name": "iam-constant"}}: the paper's Constant policy (AsterixDB's own 'constant' is a different one). */
public final class IamConstantMergePolicyFactory extends IamMergePolicyFactory {

  private static final long serialVersionUID = 1L;

  public static final String NAME = "iam-constant";

  public IamConstantMergePolicyFactory() {
    super(NAME, "constant");
  }

  /** Restores the factory from the class identifier AsterixDB persisted. */
  public static IJsonSerializable fromJson(IPersistedResourceRegistry registry, JsonNode json) {
    return new IamConstantMergePolicyFactory();
  }
}
