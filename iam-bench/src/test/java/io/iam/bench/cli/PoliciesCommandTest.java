package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.policy.MergePolicies;
import org.junit.jupiter.api.Test;

class PoliciesCommandTest {

  @Test
  void listsEveryPolicyWithSummaryAndOptions() {
    CliRun run = CliRun.of("policies");

    assertEquals(0, run.exitCode(), run.err());
    for (MergePolicies.Descriptor d : MergePolicies.all()) {
      assertTrue(run.out().contains(d.name()), d.name());
      assertTrue(run.out().contains(d.summary()), d.summary());
      d.options().options().forEach(o -> assertTrue(run.out().contains(o.key()), o.key()));
    }
  }

  @Test
  void markdownTablesAreTheRegistrysOwn() {
    CliRun run = CliRun.of("policies", "--markdown");

    assertEquals(0, run.exitCode(), run.err());
    for (MergePolicies.Descriptor d : MergePolicies.all()) {
      assertTrue(run.out().contains(d.options().toMarkdown("")), d.name());
    }
  }
}
