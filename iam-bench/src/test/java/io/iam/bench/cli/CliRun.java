package io.iam.bench.cli;

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

  public List<String> outLines() {
    return out.lines().toList();
  }

  public String lastOutLine() {
    List<String> lines = outLines();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }
}
