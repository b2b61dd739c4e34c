package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a workload's main in a child JVM and SIGKILLs it: the child prints "open" once its store is
 * open, then the number of each batch it has acknowledged, one per line.
 */
final class KilledChild {

  private KilledChild() {}

  /**
   * Runs {@code main} with {@code args} until {@code millis} after its first acknowledged batch
   * ({@code first}), kills it, and returns the last batch it acknowledged.
   */
  static long runAndKill(Class<?> main, List<String> args, long first, long millis) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process child = pb.start();
    AtomicLong last = new AtomicLong(first - 1);
    List<String> otherLines = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          String t = line.trim();
          // Anything but a batch number ("open", a JVM warning on stdout) is kept, never parsed: a
          // line that stopped this reader would leave 'last' behind what the child acknowledged.
          if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
            last.set(Long.parseLong(t));
          } else {
            otherLines.add(line);
          }
        }
      } catch (Exception e) {
        // the pipe breaks when the child dies
      }
    });
    reader.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (last.get() < first && System.nanoTime() < deadline && child.isAlive()) {
      Thread.sleep(5);
    }
    Thread.sleep(millis);
    child.destroyForcibly(); // SIGKILL on Linux
    child.waitFor(30, TimeUnit.SECONDS);
    reader.join(60_000);
    assertTrue(!reader.isAlive(), "the child's output was not read to its end");
    assertTrue(last.get() >= first, "the child never acknowledged a write (did it fail to start?); other output: " + otherLines);
    return last.get();
  }
}
