package io.iam.core.fs;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * An {@link FsFile} that passes every call to another; subclasses override the calls they watch
 * or change (fault injection, counting, recording).
 */
public abstract class ForwardingFsFile implements FsFile {

  protected final FsFile delegate;

  protected ForwardingFsFile(FsFile delegate) {
    this.delegate = delegate;
  }

  @Override
  public void readFully(long position, ByteBuffer dst) throws IOException {
    delegate.readFully(position, dst);
  }

  @Override
  public void write(long position, ByteBuffer src) throws IOException {
    delegate.write(position, src);
  }

  @Override
  public long size() throws IOException {
    return delegate.size();
  }

  @Override
  public void sync() throws IOException {
    delegate.sync();
  }

  @Override
  public void truncate(long size) throws IOException {
    delegate.truncate(size);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
