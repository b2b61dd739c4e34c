package io.iam.asterix.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.iam.asterix.policy.AsterixPolicies;
import io.iam.asterix.policy.IamMergePolicyFactory;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The installation's pieces that need no cluster: the registry and the compile-time check. */
class InstallationPiecesTest {

  @Test
  void everyFactoryRoundTripsThroughThePersistedResourceRegistry() throws Exception {
    IamPersistedResourceRegistry registry = new IamPersistedResourceRegistry();
    for (IamMergePolicyFactory f : AsterixPolicies.all()) {
      JsonNode json = f.toJson(registry);
      assertEquals(f.getClass().getName(), json.path("@class").asText(), json.toString());
      assertSame(f.getClass(), registry.deserialize(json).getClass());
    }
  }

  @Test
  void checkNamesEveryBadParameterOfOurPoliciesAndLeavesOthersToAsterixDb() {
    Optional<String> problem = MergePolicyCheck.problem("exploring", Map.of("num-components", "0",
        "size-ratio", "1.2", "min-merge-component-count", "1", "max-merge-component-count", "10"));
    assertTrue(problem.isPresent());
    assertTrue(problem.get().contains("num-components=0 is out of range: allowed 1 to 64"), problem.get());
    assertTrue(problem.get().contains("min-merge-component-count=1 is out of range"), problem.get());
    assertEquals(Optional.empty(), MergePolicyCheck.problem("binomial", Map.of("num-components", "6")));
    // AsterixDB requires every listed parameter itself; a missing one is not ours to report.
    assertEquals(Optional.empty(), MergePolicyCheck.problem("binomial", null));
    assertEquals(Optional.empty(), MergePolicyCheck.problem("prefix", Map.of("num-components", "0")));
  }
}
