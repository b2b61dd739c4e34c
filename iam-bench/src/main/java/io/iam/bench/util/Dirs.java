package io.iam.bench.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/** Directories the subcommands create for a run and remove afterwards. */
public final class Dirs {

  private Dirs() {}

  /**
   * Why {@code dir} cannot take a new store ("/x exists and is not a directory", "/x is not empty;
   * give a new directory"), or empty if it is new or an empty directory: a store loaded into old data
   * skews every figure.
   */
  public static Optional<String> newOrEmptyProblem(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return Optional.empty();
    }
    if (!Files.isDirectory(dir)) {
      return Optional.of(dir + " exists and is not a directory");
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.findAny().isPresent() ? Optional.of(dir + " is not empty; give a new directory") : Optional.empty();
    }
  }

  /** Deletes {@code root} and everything below it; nothing if it does not exist. */
  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
