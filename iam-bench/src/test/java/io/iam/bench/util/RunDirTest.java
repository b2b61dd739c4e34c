package io.iam.bench.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's data directory: a temporary one goes when the run ends unless kept; one the user gave always stays. */
class RunDirTest {

  @Test
  void aTemporaryDirectoryAndEverythingInItIsDeleted() throws Exception {
    StringWriter err = new StringWriter();
    Path path;
    try (RunDir dir = RunDir.of(null, "test", false, new PrintWriter(err), "test")) {
      path = dir.path();
      assertTrue(dir.temporary());
      Files.createDirectories(path.resolve("a/b"));
      Files.writeString(path.resolve("a/b/file"), "x");
    }
    assertFalse(Files.exists(path), path + " is gone");
    assertEquals("", err.toString());
  }

  @Test
  void aKeptTemporaryDirectoryStaysAndIsNamed() throws Exception {
    StringWriter err = new StringWriter();
    Path path;
    try (RunDir dir = RunDir.of(null, "test", true, new PrintWriter(err), "iam test")) {
      path = dir.path();
    }
    try {
      assertTrue(Files.isDirectory(path));
      assertEquals("iam test: data kept in " + path, err.toString().trim());
    } finally {
      Dirs.deleteTree(path);
    }
  }

  @Test
  void aDirectoryTheUserGaveIsNeverDeleted(@TempDir Path given) throws Exception {
    Files.writeString(given.resolve("file"), "x");
    try (RunDir dir = RunDir.of(given, "test", false, new PrintWriter(new StringWriter()), "test")) {
      assertFalse(dir.temporary());
      assertEquals(given, dir.path());
    }
    assertTrue(Files.exists(given.resolve("file")));
  }
}
