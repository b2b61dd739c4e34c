package io.iam.bench.lsbm;

import io.iam.core.fs.ForwardingFs;
import io.iam.core.fs.ForwardingFsFile;
import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * A simulated device for the hit-ratio benchmark: a read of a table file that does not continue
 * where the previous read of the same open file ended (a seek) waits {@code latencyMicros} before
 * it is served (from the OS page cache, where the files of a small run are). Without it a
 * block-cache miss costs a page-cache copy, a few microseconds, and the hit ratio hardly shows in
 * throughput; the paper's throughput figures come from disk seeks. A compaction reads each input
 * through a file of its own, front to back, so it pays one seek per file, as with a device's
 * read-ahead. Writes are not slowed.
 */
final class SlowReadsFs extends ForwardingFs {

  private final long latencyNanos;

  SlowReadsFs(Fs delegate, long latencyMicros) {
    super(delegate);
    this.latencyNanos = latencyMicros * 1000;
  }

  @Override
  protected FsFile wrap(Path path, FsFile file) {
    if (latencyNanos == 0 || !path.getFileName().toString().endsWith(".mst")) {
      return file;
    }
    return new ForwardingFsFile(file) {
      /** Where the previous read ended. */
      private volatile long next = -1;

      @Override
      public void readFully(long position, ByteBuffer dst) throws IOException {
        if (position != next) {
          LockSupport.parkNanos(latencyNanos);
        }
        int n = dst.remaining();
        super.readFully(position, dst);
        next = position + n;
      }
    };
  }
}
