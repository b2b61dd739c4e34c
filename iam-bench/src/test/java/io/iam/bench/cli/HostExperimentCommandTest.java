package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code iam host-experiment} on iam-bench's own class path, where no host module is: the command
 * names the host it did not find and how to get one. The runs themselves are tested in the host
 * modules ({@code AsterixHostExperimentTest}).
 */
class HostExperimentCommandTest {

  @Test
  void withoutAHostModuleTheCommandSaysWhereHostsComeFrom() {
    StringWriter err = new StringWriter();
    CommandLine cl = IamCommand.newCommandLine();
    cl.setErr(new PrintWriter(err));
    assertEquals(2, cl.execute("host-experiment", "--host", "asterixdb", "--flushes", "10"));
    assertTrue(err.toString().contains("--host asterixdb is not one of [] (run through ./iam"), err.toString());
  }
}
