package io.iam.core.wal;

import java.io.IOException;
import java.nio.file.Path;

/** The log holds bytes that are not valid records, and the recovery mode does not allow it. */
public final class WalCorruptionException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path path;
  private final long offset;

  /**
   * @param path the log file
   * @param offset the byte offset of the bad fragment (or of the bad bytes)
   * @param detail what is wrong there
   */
  public WalCorruptionException(Path path, long offset, String detail) {
    super(path + ": corrupt log at offset " + offset + ": " + detail);
    this.path = path;
    this.offset = offset;
  }

  /** The log file. */
  public Path path() {
    return path;
  }

  /** The byte offset of the bad fragment. */
  public long offset() {
    return offset;
  }
}
