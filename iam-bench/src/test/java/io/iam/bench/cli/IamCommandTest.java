package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IamCommandTest {

  @Test
  void withoutACommandListsEveryCommandAndFails() {
    CliRun run = CliRun.of();

    assertEquals(2, run.exitCode());
    assertEquals("", run.out());
    assertTrue(run.err().startsWith("iam: missing command (simulate, simulate-tree, policies, load, ycsb, projections, compare, draw-tree, jmh-compare or host-experiment)\n"), run.err());
    assertTrue(run.err().contains("Usage: iam"), run.err());
  }
}
