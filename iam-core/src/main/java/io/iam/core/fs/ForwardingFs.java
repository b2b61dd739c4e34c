package io.iam.core.fs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * An {@link Fs} that passes every call to another; subclasses override the calls they watch or
 * change. Files are opened through {@link #wrap}, so a subclass can watch them too.
 */
public abstract class ForwardingFs implements Fs {

  protected final Fs delegate;

  protected ForwardingFs(Fs delegate) {
    this.delegate = delegate;
  }

  /** Wraps a file this file system opened; returns it unchanged by default. */
  protected FsFile wrap(Path path, FsFile file) {
    return file;
  }

  @Override
  public FsFile open(Path path, Mode mode) throws IOException {
    return wrap(path, delegate.open(path, mode));
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    delegate.rename(from, to);
  }

  @Override
  public void delete(Path path) throws IOException {
    delegate.delete(path);
  }

  @Override
  public boolean exists(Path path) {
    return delegate.exists(path);
  }

  @Override
  public List<Path> list(Path dir) throws IOException {
    return delegate.list(dir);
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    delegate.createDirectories(dir);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    delegate.syncDirectory(dir);
  }

  @Override
  public FsLock lock(Path lockFile) throws IOException {
    return delegate.lock(lockFile);
  }

  @Override
  public long usableSpace(Path path) throws IOException {
    return delegate.usableSpace(path);
  }
}
