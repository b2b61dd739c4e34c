package io.iam.bench.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.cli.IamCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Starts one {@code iam} command in a JVM of its own and reads the JSON object on the last line of
 * its stdout. Its stderr is forwarded line by line, each line prefixed, while it runs.
 *
 * @param prefix what comes before the command's arguments: the {@code iam} script (which puts the
 *     class path of the HBase and AsterixDB bindings when a command names them), or {@code java -cp
 *     <class path> io.iam.bench.cli.IamCommand}
 * @param shown how the report names the launcher
 * @param script whether it is the {@code iam} script
 */
record ChildLauncher(List<String> prefix, String shown, boolean script) {

  /** The environment variable the {@code iam} script exports with its own path. */
  static final String SCRIPT_VARIABLE = "IAM_SCRIPT";

  /** The exit code of a run whose JVM could not be started. */
  static final int CANNOT_START = -1;

  private static final ObjectMapper JSON = new ObjectMapper();

  ChildLauncher {
    prefix = List.copyOf(prefix);
  }

  /**
   * The {@code iam} script if {@code env} names it in {@value #SCRIPT_VARIABLE}, else this JVM's
   * {@code java} with this JVM's class path.
   */
  static ChildLauncher of(Map<String, String> env, String javaHome, String classPath) {
    String script = env.get(SCRIPT_VARIABLE);
    if (script != null && !script.isBlank()) {
      return new ChildLauncher(List.of(script), script, true);
    }
    String java = Path.of(javaHome, "bin", "java").toString();
    return new ChildLauncher(List.of(java, "-cp", classPath, IamCommand.class.getName()),
        java + " -cp <this JVM's class path> " + IamCommand.class.getName(), false);
  }

  /** The launcher of this JVM: its environment, {@code java.home} and {@code java.class.path}. */
  static ChildLauncher ofThisJvm() {
    return of(System.getenv(), System.getProperty("java.home"), System.getProperty("java.class.path"));
  }

  /**
   * What a child did.
   *
   * @param exitCode its exit code
   * @param millis its wall time, JVM start included
   * @param json the object on the last line of its stdout, or null if that line is not one
   * @param lastStderrLine its last non-blank line on stderr, or null if it wrote none
   */
  record Outcome(int exitCode, long millis, JsonNode json, String lastStderrLine) {

    /** Whether the run failed: a non-zero exit or no JSON. */
    boolean failed() {
      return exitCode != 0 || json == null;
    }

    /** Why it failed, in one line. */
    String why() {
      String what = exitCode != 0 ? "exit code " + exitCode : "no JSON object on the last line of stdout";
      return lastStderrLine == null ? what : what + ": " + lastStderrLine;
    }
  }

  /**
   * Runs {@code iam <args>}, forwarding its stderr to {@code err} with each line after {@code tag};
   * if the process cannot be started, the outcome has exit code {@value #CANNOT_START} and says why.
   */
  Outcome run(List<String> args, PrintWriter err, String tag) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(prefix);
    command.addAll(args);
    long start = System.nanoTime();
    Process p;
    try {
      p = new ProcessBuilder(command).start();
    } catch (IOException e) {
      // A launcher that cannot start (a moved script) fails each run, as a run that fails at once.
      return new Outcome(CANNOT_START, (System.nanoTime() - start) / 1_000_000, null,
          "cannot start " + command.get(0) + ": " + e.getMessage());
    }
    p.getOutputStream().close();
    AtomicReference<String> lastErr = new AtomicReference<>();
    Thread forward = new Thread(() -> {
      try (BufferedReader r = reader(p.getErrorStream())) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          if (!line.isBlank()) {
            lastErr.set(line.strip());
          }
          synchronized (err) {
            err.println(tag + line);
            err.flush();
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, "compare-stderr");
    forward.start();
    String last = null;
    try (BufferedReader r = reader(p.getInputStream())) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (!line.isBlank()) {
          last = line;
        }
      }
    }
    int code = p.waitFor();
    forward.join();
    long millis = (System.nanoTime() - start) / 1_000_000;
    return new Outcome(code, millis, parse(last), lastErr.get());
  }

  private static JsonNode parse(String line) {
    if (line == null || !line.startsWith("{")) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(line);
      return node.isObject() ? node : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static BufferedReader reader(java.io.InputStream in) {
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
  }
}
