package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/** Runs the {@code iam} command in-process with stdout and stderr captured; for every command's tests. */
public record CliRun(int exitCode, String out, String err) {

  public static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = IamCommand.newCommandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  /**
   * Runs {@code iam <command> <args>} and checks that it failed as a usage error: exit code 2, stderr
   * starting with {@code expectedStart}, nothing on stdout.
   */
  public static CliRun assertUsageError(String command, String expectedStart, String... args) {
    String[] all = new String[args.length + 1];
    all[0] = command;
    System.arraycopy(args, 0, all, 1, args.length);
    CliRun run = of(all);
    assertEquals(2, run.exitCode(), run.err());
    assertTrue(run.err().startsWith(expectedStart), "expected '" + expectedStart + "', got: " + run.err());
    assertEquals("", run.out());
    return run;
  }

  public List<String> outLines() {
    return out.lines().toList();
  }

  public String lastOutLine() {
    List<String> lines = outLines();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }
}
