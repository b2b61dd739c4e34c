package io.iam.core.fs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * An open file with positional reads and writes. Positional access lets a table file grow at both
 * ends (data forward from the start, metadata backward from the end). Safe for concurrent
 * positional reads; writes must be serialized by the caller.
 */
public interface FsFile extends Closeable {

  /**
   * Reads {@code dst.remaining()} bytes starting at {@code position}.
   *
   * @throws java.io.EOFException if the file ends first
   */
  void readFully(long position, ByteBuffer dst) throws IOException;

  /** Writes all of {@code src} at {@code position}, growing the file if needed. */
  void write(long position, ByteBuffer src) throws IOException;

  /** Current length in bytes. */
  long size() throws IOException;

  /** Forces written data (and the length) to stable storage. */
  void sync() throws IOException;

  /** Cuts the file to {@code size} bytes. */
  void truncate(long size) throws IOException;
}
