package io.iam.bench.load;

import io.iam.bench.cli.IamCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/** Runs the {@code iam} command in-process with stdout and stderr captured. */
record LoadCli(int exitCode, String out, String err) {

  static LoadCli run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = IamCommand.newCommandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new LoadCli(code, out.toString(), err.toString());
  }

  String lastOutLine() {
    List<String> lines = out.lines().toList();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }
}
