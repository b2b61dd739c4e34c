package io.iam.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.iam.core.option.InvalidOptionsException;
import io.iam.core.sim.Accounting;
import io.iam.core.sim.DecisionObserver;
import io.iam.core.sim.Simulator;
import io.iam.core.sim.UniformFlushes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Data-driven policy tests, in the style of Pebble's {@code testdata/compaction_picker_*}. Each
 * file under {@code src/test/resources/golden} holds cases of the form
 *
 * <pre>
 * # comment
 * command policy key=value ...
 * input line ...
 * ----
 * expected output ...
 * </pre>
 *
 * separated by blank lines. Commands:
 *
 * <ul>
 *   <li>{@code plan POLICY [opts]} with input {@code t=N} (flush count; default: the number of
 *       components) and {@code sizes: 10 20 30*} (oldest first, {@code *} = being merged). Output:
 *       the plan and the component count after it.
 *   <li>{@code schedule POLICY [opts] flushes=N} on uniform flushes of length 1: one line per flush
 *       with the plan and the stack after it, like Fig. 1(b) of the bounded-depth paper.
 *   <li>{@code options POLICY [opts]}: the canonical option values, or the validation error.
 * </ul>
 *
 * Run with {@code -Diam.golden.rewrite=true} to rewrite every expectation from the current code
 * (then review the diff).
 */
class GoldenPolicyTest {

  private static final String SEPARATOR = "----";

  @TestFactory
  Stream<DynamicTest> goldenFiles() throws IOException {
    Path dir = Paths.get(System.getProperty("iam.golden.dir", "src/test/resources/golden"));
    boolean rewrite = Boolean.getBoolean("iam.golden.rewrite");
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(p -> p.toString().endsWith(".txt")).sorted().toList();
    }
    assertFalse(files.isEmpty(), "no golden files in " + dir);
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : files) {
      List<Case> cases = parse(Files.readAllLines(file, StandardCharsets.UTF_8));
      if (rewrite) {
        cases.forEach(c -> c.expected = run(c));
        Files.write(file, render(cases), StandardCharsets.UTF_8);
      }
      for (Case c : cases) {
        tests.add(
            DynamicTest.dynamicTest(
                file.getFileName() + ":" + c.line + " " + c.command,
                () -> assertEquals(String.join("\n", c.expected), String.join("\n", run(c)),
                    file + ":" + c.line + " (rerun with -Diam.golden.rewrite=true to accept)")));
      }
    }
    return tests.stream();
  }

  /** One case: its comments, command, input and expected output. */
  private static final class Case {
    final List<String> comments = new ArrayList<>();
    String command;
    int line;
    final List<String> input = new ArrayList<>();
    List<String> expected = new ArrayList<>();
  }

  private static List<Case> parse(List<String> lines) {
    List<Case> cases = new ArrayList<>();
    Case current = new Case();
    boolean inExpected = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        if (current.command != null) {
          cases.add(current);
          current = new Case();
        } else if (!current.comments.isEmpty()) {
          current.comments.add(""); // a blank line inside a comment block is kept
        }
        inExpected = false;
      } else if (current.command == null && line.startsWith("#")) {
        current.comments.add(line);
      } else if (current.command == null) {
        current.command = line.trim();
        current.line = i + 1;
      } else if (line.equals(SEPARATOR)) {
        inExpected = true;
      } else if (inExpected) {
        current.expected.add(line);
      } else {
        current.input.add(line.trim());
      }
    }
    if (current.command != null) {
      cases.add(current);
    }
    return cases;
  }

  private static List<String> render(List<Case> cases) {
    List<String> out = new ArrayList<>();
    for (Case c : cases) {
      if (!out.isEmpty()) {
        out.add("");
      }
      out.addAll(c.comments);
      out.add(c.command);
      out.addAll(c.input);
      out.add(SEPARATOR);
      out.addAll(c.expected);
    }
    return out;
  }

  private static List<String> run(Case c) {
    String[] words = c.command.split("\\s+");
    Map<String, String> options = new LinkedHashMap<>();
    for (String w : Arrays.copyOfRange(words, 2, words.length)) {
      int eq = w.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("expected key=value, got '" + w + "' in: " + c.command);
      }
      options.put(w.substring(0, eq), w.substring(eq + 1));
    }
    try {
      return switch (words[0]) {
        case "plan" -> plan(MergePolicies.create(words[1], options), c.input);
        case "schedule" -> schedule(words[1], options);
        case "options" -> List.of(MergePolicies.create(words[1], options).options().toString());
        default -> throw new IllegalArgumentException("unknown command: " + words[0]);
      };
    } catch (InvalidOptionsException e) {
      return List.of("error: " + e.getMessage());
    }
  }

  private static List<String> plan(MergePolicy policy, List<String> input) {
    List<Component> components = new ArrayList<>();
    long t = -1;
    for (String line : input) {
      if (line.startsWith("t=")) {
        t = Long.parseLong(line.substring(2));
      } else if (line.startsWith("sizes:")) {
        for (String s : line.substring(6).trim().split("\\s+")) {
          boolean merging = s.endsWith("*");
          long size = Long.parseLong(merging ? s.substring(0, s.length() - 1) : s);
          long flush = components.size() + 1;
          components.add(new Component(flush, size, flush, flush, 1, merging));
        }
      } else {
        throw new IllegalArgumentException("unknown input line: " + line);
      }
    }
    StackSnapshot snapshot = StackSnapshot.of(components, t < 0 ? components.size() : t);
    MergePlan plan = policy.plan(snapshot);
    return List.of(plan + " -> " + plan.sizeAfter(snapshot.size()) + " components");
  }

  private static List<String> schedule(String name, Map<String, String> options) {
    long flushes = Long.parseLong(options.remove("flushes"));
    MergePolicy policy = MergePolicies.create(name, options);
    List<String> out = new ArrayList<>();
    DecisionObserver recording = (s, p) ->
        out.add(String.format("t=%-3d %-12s %s", s.flushCount(), p, Arrays.toString(Stacks.sizesAfter(s, p))));
    var result = new Simulator(policy, new UniformFlushes(1), Accounting.MODEL, flushes, null)
        .observe(recording)
        .run(flushes);
    out.add(String.format("write-amp=%.4f avg-components=%.4f merges=%d",
        result.writeAmplification(), result.averageComponents(), result.merges()));
    return out;
  }
}
