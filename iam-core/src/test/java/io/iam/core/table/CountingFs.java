package io.iam.core.table;

import io.iam.core.fs.ForwardingFs;
import io.iam.core.fs.ForwardingFsFile;
import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/** Delegates to another file system and counts positional reads (and their bytes) and writes. Thread-safe. */
final class CountingFs extends ForwardingFs {

  final AtomicLong reads = new AtomicLong();
  final AtomicLong bytesRead = new AtomicLong();
  final AtomicLong writes = new AtomicLong();

  CountingFs(Fs delegate) {
    super(delegate);
  }

  @Override
  protected FsFile wrap(Path path, FsFile file) {
    return new ForwardingFsFile(file) {
      @Override
      public void readFully(long position, ByteBuffer dst) throws IOException {
        reads.incrementAndGet();
        bytesRead.addAndGet(dst.remaining());
        super.readFully(position, dst);
      }

      @Override
      public void write(long position, ByteBuffer src) throws IOException {
        writes.incrementAndGet();
        super.write(position, src);
      }
    };
  }
}
