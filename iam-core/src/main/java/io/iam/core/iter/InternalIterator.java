package io.iam.core.iter;

import java.io.Closeable;
import java.io.IOException;

/**
 * An ordered cursor over internal entries (internal key, value), the one shape every source of
 * data (memtables, sorted sequences, levels, merges of them) is read through. Not thread-safe.
 */
public interface InternalIterator extends Closeable {

  boolean valid();

  void seekToFirst() throws IOException;

  /** Positions at the first entry whose internal key is ≥ {@code internalKey}. */
  void seek(byte[] internalKey) throws IOException;

  void next() throws IOException;

  /** The current internal key; only while {@link #valid()}. */
  byte[] key();

  /** The current value; only while {@link #valid()}. */
  byte[] value();

  /**
   * The current value without a copy where the source allows it (a block being read): valid only
   * until the iterator moves or closes, and never to be modified. For a writer that copies the
   * bytes on at once, such as a compaction's output; {@link #value()} is for keeping them.
   */
  default Slice valueSlice() {
    return Slice.of(value());
  }

  @Override
  default void close() throws IOException {}
}
