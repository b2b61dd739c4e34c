package io.iam.core.fs;

import java.io.Closeable;
import java.io.IOException;

/** An exclusive lock on a store directory; released by {@link #close()}. */
public interface FsLock extends Closeable {
  @Override
  void close() throws IOException;
}
