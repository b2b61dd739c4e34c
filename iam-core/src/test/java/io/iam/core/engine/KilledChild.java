package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a workload's main in a child JVM and SIGKILLs it: the child prints "open" once its store is
 * open, then records each batch it has acknowledged with {@link #acknowledge}.
 *
 * <p>Acknowledgements go to a file of their own, not to the child's stdout: a plain write to a
 * file outlives a SIGKILL (only the machine's crash would lose it), and nothing else writes there.
 * LsbmCrashTest has read batches the parent had not seen acknowledged on the child's stdout (in a
 * CI run, and in a local loop "reads v4747:40" with batches acknowledged up to 4745: two past the
 * last). The cause was not found; stdout, which the JVM shares and which the parent reads through
 * a pipe, is the one part of that check outside the store, so it no longer carries them. The
 * child's JVM also sends its own messages to stderr ({@code -XX:+DisplayVMOutputToStderr}).
 */
public final class KilledChild {

  private static final Pattern ACK = Pattern.compile("<ack (\\d+)>");

  private KilledChild() {}

  /** The system property that names the child's acknowledgement file. */
  public static final String ACKS_PROPERTY = "iam.killed-child.acks";

  private static FileOutputStream acks;

  /**
   * Records, in the child, that batch {@code n} is acknowledged (durable): one unbuffered write of
   * a line to the file {@link #ACKS_PROPERTY} names.
   */
  public static synchronized void acknowledge(long n) throws IOException {
    if (acks == null) {
      acks = new FileOutputStream(System.getProperty(ACKS_PROPERTY), true);
    }
    acks.write(("<ack " + n + ">\n").getBytes(StandardCharsets.US_ASCII));
  }

  /** The largest batch acknowledged in {@code file} so far ({@code none} if none). */
  private static long lastAcknowledged(Path file, long none) throws IOException {
    long last = none;
    if (Files.exists(file)) {
      Matcher m = ACK.matcher(Files.readString(file, StandardCharsets.US_ASCII));
      while (m.find()) {
        last = Math.max(last, Long.parseLong(m.group(1)));
      }
    }
    return last;
  }

  /**
   * Runs {@code main} with {@code args} until {@code millis} after its first acknowledged batch
   * ({@code first}), kills it, and returns the last batch it acknowledged.
   */
  static long runAndKill(Class<?> main, List<String> args, long first, long millis) throws Exception {
    return runAndKill(main, List.of("-Xmx256m"), args, first, millis, 30);
  }

  /**
   * As {@link #runAndKill(Class, List, long, long)}, in a JVM with {@code jvmOptions}, which may
   * take up to {@code startSeconds} to acknowledge its first batch.
   */
  public static long runAndKill(Class<?> main, List<String> jvmOptions, List<String> args, long first, long millis,
      int startSeconds) throws Exception {
    Path ackFile = Files.createTempFile("killed-child-", ".acks");
    try {
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      command.addAll(jvmOptions);
      command.addAll(List.of("-XX:+DisplayVMOutputToStderr", "-D" + ACKS_PROPERTY + "=" + ackFile,
          "-cp", System.getProperty("java.class.path"), main.getName()));
      command.addAll(args);
      ProcessBuilder pb = new ProcessBuilder(command);
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process child = pb.start();
      List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
      Thread reader = new Thread(() -> { // drains stdout, kept for a failure's message
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = in.readLine()) != null) {
            output.add(line);
          }
        } catch (Exception e) {
          // the pipe breaks when the child dies
        }
      });
      reader.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(startSeconds);
      while (lastAcknowledged(ackFile, first - 1) < first && System.nanoTime() < deadline && child.isAlive()) {
        Thread.sleep(5);
      }
      Thread.sleep(millis);
      child.destroyForcibly(); // SIGKILL on Linux
      assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child did not die");
      reader.join(60_000);
      long last = lastAcknowledged(ackFile, first - 1);
      assertTrue(last >= first, "the child never acknowledged a write (did it fail to start?); its output: " + output);
      return last;
    } finally {
      Files.deleteIfExists(ackFile);
    }
  }
}
