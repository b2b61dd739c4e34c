package io.iam.asterix.policy;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/**
 * {@code "merge-policy": {"name": "iam-stack"}}: the IAM-tree's m/k flush strategy as a stack
 * policy, for AsterixDB's components, which cannot be split by key range. Its parameters are
 * {@code num-components} (the depth bound), {@code max-tolerance-component-count} (the boundary
 * tier's k), {@code size-ratio} (t) and {@code max-mergable-component-size} (the memory budget M,
 * in bytes).
 */
public final class IamStackMergePolicyFactory extends IamMergePolicyFactory {

  private static final long serialVersionUID = 1L;

  public static final String NAME = "iam-stack";

  public IamStackMergePolicyFactory() {
    super(NAME, "iam-stack");
  }

  /** Restores the factory from the class identifier AsterixDB persisted. */
  public static IJsonSerializable fromJson(IPersistedResourceRegistry registry, JsonNode json) {
    return new IamStackMergePolicyFactory();
  }
}
