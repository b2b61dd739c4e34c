package io.iam.core.table;

import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import io.iam.core.fs.FsLock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Delegates to another file system and counts positional reads and writes. Thread-safe. */
final class CountingFs implements Fs {

  private final Fs delegate;
  final AtomicLong reads = new AtomicLong();
  final AtomicLong writes = new AtomicLong();

  CountingFs(Fs delegate) {
    this.delegate = delegate;
  }

  @Override
  public FsFile open(Path path, Mode mode) throws IOException {
    FsFile f = delegate.open(path, mode);
    return new FsFile() {
      @Override
      public void readFully(long position, ByteBuffer dst) throws IOException {
        reads.incrementAndGet();
        f.readFully(position, dst);
      }

      @Override
      public void write(long position, ByteBuffer src) throws IOException {
        writes.incrementAndGet();
        f.write(position, src);
      }

      @Override
      public long size() throws IOException {
        return f.size();
      }

      @Override
      public void sync() throws IOException {
        f.sync();
      }

      @Override
      public void truncate(long size) throws IOException {
        f.truncate(size);
      }

      @Override
      public void close() throws IOException {
        f.close();
      }
    };
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
