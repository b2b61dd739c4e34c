package io.iam.bench.util;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The data directory of one command run: the one the user gave ({@code --dir}, kept), or a new
 * temporary one that {@link #close()} deletes, or keeps and names on stderr if asked to ({@code
 * --keep}).
 */
public final class RunDir implements AutoCloseable {

  private final Path path;
  private final boolean temporary;
  private final boolean keep;
  private final PrintWriter err;
  private final String command;

  private RunDir(Path path, boolean temporary, boolean keep, PrintWriter err, String command) {
    this.path = path;
    this.temporary = temporary;
    this.keep = keep;
    this.err = err;
    this.command = command;
  }

  /**
   * {@code given}, or a new temporary directory named {@code iam-<name>-...} if it is null.
   *
   * @param command how the kept-directory note starts, e.g. {@code "iam load"}
   */
  public static RunDir of(Path given, String name, boolean keep, PrintWriter err, String command) throws IOException {
    return given != null
        ? new RunDir(given, false, true, err, command)
        : new RunDir(Files.createTempDirectory("iam-" + name + "-"), true, keep, err, command);
  }

  public Path path() {
    return path;
  }

  /** Whether the directory is a temporary one (the user gave none). */
  public boolean temporary() {
    return temporary;
  }

  @Override
  public void close() throws IOException {
    if (!temporary) {
      return;
    }
    if (keep) {
      err.println(command + ": data kept in " + path);
      err.flush();
    } else {
      Dirs.deleteTree(path);
    }
  }
}
