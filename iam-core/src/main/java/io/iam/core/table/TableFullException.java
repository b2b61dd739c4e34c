package io.iam.core.table;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A sequence does not fit in the hole of its MSTable file: its data, or its data plus metadata,
 * would run into the metadata of the sequences already there. Checked (an {@link IOException}, so
 * catch it before a general {@code IOException}). When it is thrown nothing visible has changed:
 * the sequence being written is abandoned, the file's committed sequences stay intact and
 * readable, and the writer can begin another (smaller) sequence.
 */
public final class TableFullException extends IOException {
  private static final long serialVersionUID = 1L;

  private final long needed;
  private final long free;

  public TableFullException(Path file, long needed, long free) {
    super("table file " + file + " is full: the sequence needs at least " + needed + " bytes but only " + free + " are free");
    this.needed = needed;
    this.free = free;
  }

  /** Bytes the sequence needed (a lower bound if thrown while data was still being added). */
  public long needed() {
    return needed;
  }

  /** Bytes that were free in the hole when the sequence began. */
  public long free() {
    return free;
  }
}
