package io.iam.asterix.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.option.InvalidOptionsException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The factories' names, parameters and errors, as AsterixDB sees them. */
class IamMergePolicyFactoryTest {

  @Test
  void namesAreDistinctAndNeverAsterixDbsBuiltIns() {
    Set<String> names = new HashSet<>();
    for (IamMergePolicyFactory f : AsterixPolicies.all()) {
      assertTrue(names.add(f.getName()), "duplicate " + f.getName());
    }
    // AsterixDB 0.9.8 ships these; a clash would make its metadata map the name to two classes.
    for (String builtIn : List.of("prefix", "constant", "correlated-prefix", "no-merge", "concurrent")) {
      assertTrue(!names.contains(builtIn), builtIn);
    }
    assertEquals(Set.of("binomial", "minlatency", "bigtable", "exploring", "iam-constant", "size-tiered",
        "iam-stack", "leveling", "tiering"), names);
  }

  @Test
  void parametersUseAsterixDbsNames() {
    IamMergePolicyFactory binomial = new BinomialMergePolicyFactory();
    assertEquals(Set.of("num-components"), binomial.getPropertiesNames());
    IamMergePolicy p = assertInstanceOf(IamMergePolicy.class,
        binomial.createMergePolicy(Map.of("num-components", "6"), null));
    assertEquals("binomial", p.kernelPolicy().name());
    assertEquals(6, p.kernelPolicy().maxComponents());
    assertEquals(13, p.hardBound(), "2k + 1");

    IamMergePolicy defaults = (IamMergePolicy) new ExploringMergePolicyFactory()
        .createMergePolicy(Map.of(), null);
    assertEquals("exploring", defaults.kernelPolicy().name());
    assertTrue(new ExploringMergePolicyFactory().getPropertiesNames()
        .containsAll(Set.of("num-components", "size-ratio")));
    IamMergePolicy tiered = (IamMergePolicy) new SizeTieredMergePolicyFactory()
        .createMergePolicy(Map.of("max-component-count", "5"), null);
    assertEquals(5, tiered.kernelPolicy().maxComponents());
    assertEquals(11, tiered.hardBound());
  }

  @Test
  void iamStackTakesItsFourOptionsUnderAsterixDbsNames() {
    IamMergePolicyFactory stack = new IamStackMergePolicyFactory();
    assertEquals(Set.of("num-components", "max-tolerance-component-count", "size-ratio",
        "max-mergable-component-size"), stack.getPropertiesNames());
    IamMergePolicy p = (IamMergePolicy) stack.createMergePolicy(Map.of("num-components", "8",
        "max-tolerance-component-count", "3", "size-ratio", "4", "max-mergable-component-size", "100663296"), null);
    assertEquals("iam-stack", p.kernelPolicy().name());
    assertEquals(Map.of("max-components", "8", "boundary-components", "3", "size-ratio", "4",
        "memory-budget", "96MiB"), p.kernelPolicy().options().asStrings());
    assertEquals(17, p.hardBound(), "2K + 1");
    // AsterixDB types size-ratio as a double, so a statement writes 4.0, which is t = 4.
    IamMergePolicy asWritten = (IamMergePolicy) stack.createMergePolicy(Map.of("size-ratio", "4.0"), null);
    assertEquals("4", asWritten.kernelPolicy().options().asStrings().get("size-ratio"));

    InvalidOptionsException e = assertThrows(InvalidOptionsException.class, () -> stack.createMergePolicy(
        Map.of("num-components", "3", "max-tolerance-component-count", "3", "size-ratio", "1.2"), null));
    assertTrue(e.getMessage().contains("size-ratio='1.2' is not valid"), e.getMessage());
    // A rule between fields names both parameters as AsterixDB does, the one left at its default too.
    e = assertThrows(InvalidOptionsException.class, () -> stack.createMergePolicy(
        Map.of("max-tolerance-component-count", "6"), null));
    assertTrue(e.getMessage().contains("max-tolerance-component-count=6 leaves no room below num-components=6"),
        e.getMessage());
  }

  @Test
  void badParametersAreNamedAsTheUserWroteThem() {
    IamMergePolicyFactory binomial = new BinomialMergePolicyFactory();
    InvalidOptionsException e = assertThrows(InvalidOptionsException.class,
        () -> binomial.createMergePolicy(Map.of("num-components", "0"), null));
    assertTrue(e.getMessage().contains("num-components=0 is out of range"), e.getMessage());
    e = assertThrows(InvalidOptionsException.class,
        () -> binomial.createMergePolicy(Map.of("size-ratio", "1.2"), null));
    assertTrue(e.getMessage().contains("unknown parameter 'size-ratio' for merge policy 'binomial'"
        + " (known: num-components)"), e.getMessage());
  }
}
