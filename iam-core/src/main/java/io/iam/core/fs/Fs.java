package io.iam.core.fs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The file-system seam. Everything the engine reads or writes goes through it, so tests can fail
 * chosen writes and syncs ({@link FaultInjectingFs}) and benchmarks can count bytes. Modeled on
 * RocksDB's {@code Env}/{@code FileSystem} and Pebble's {@code vfs}. Implementations are
 * thread-safe.
 */
public interface Fs {

  /** How a file is opened. */
  enum Mode {
    /** Read only; the file must exist. */
    READ,
    /** Read and write; created if missing, never truncated. */
    WRITE,
    /** Read and write; the file must not exist yet. */
    CREATE_NEW
  }

  FsFile open(Path path, Mode mode) throws IOException;

  /** Renames atomically, replacing {@code to} if it exists. */
  void rename(Path from, Path to) throws IOException;

  /** Deletes a file; no error if it does not exist. */
  void delete(Path path) throws IOException;

  boolean exists(Path path);

  /** The entries of a directory, sorted by name. */
  List<Path> list(Path dir) throws IOException;

  void createDirectories(Path dir) throws IOException;

  /** Makes the directory's entries (creations, renames, deletions) durable. */
  void syncDirectory(Path dir) throws IOException;

  /**
   * Takes an exclusive lock held until {@link FsLock#close()}, also against other processes.
   *
   * @throws IOException if another process or another open store in this JVM holds it
   */
  FsLock lock(Path lockFile) throws IOException;

  /** Bytes free on the volume holding {@code path}. */
  long usableSpace(Path path) throws IOException;
}
