package io.iam.core.table;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A table file failed verification: a bad checksum, magic number, version or structure. The
 * message names the file and the byte offset of the bad block or footer. Nothing read from the
 * damaged part is ever returned.
 */
public final class TableCorruptionException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long offset;

  public TableCorruptionException(Path file, long offset, String what) {
    super("corrupt table file " + file + " at offset " + offset + ": " + what);
    this.file = file;
    this.offset = offset;
  }

  public TableCorruptionException(Path file, long offset, String what, Throwable cause) {
    this(file, offset, what);
    initCause(cause);
  }

  /** The damaged file. */
  public Path file() {
    return file;
  }

  /** Offset of the bad block or footer in the file. */
  public long offset() {
    return offset;
  }
}
