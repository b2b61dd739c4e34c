package io.iam.core.fs;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Reads the chosen files of a local file system with {@code O_DIRECT}, around the operating
 * system's page cache, as RocksDB's {@code use_direct_reads} does: a read the block cache misses
 * then costs a read from the device, as on a machine whose memory does not hold the data. Writes,
 * syncs and every other call go to the wrapped file system unchanged.
 *
 * <p>{@code O_DIRECT} needs the position, length and memory of a read aligned to the device's block
 * size; each read therefore reads the aligned range around the bytes asked for into an aligned
 * buffer of the calling thread and copies them out. Linux writes back a range's dirty pages before
 * a direct read of it, so a direct read sees every byte written before it through the page cache.
 * Only for files of the local file system (the paths are opened again with {@code O_DIRECT}).
 *
 * <p>The block size is looked up once per directory, not per file: finding a path's file store
 * costs tens of microseconds (the JDK scans the mount table), which the first read of every new
 * table file would otherwise pay on top of its device read.
 */
public final class DirectReadFs extends ForwardingFs {

  private final Predicate<Path> direct;
  /** The block size of each directory's file store, by directory. */
  private final Map<Path, Integer> alignments = new ConcurrentHashMap<>();

  /**
   * @param delegate the local file system
   * @param direct which paths are read directly (for example the table files)
   */
  public DirectReadFs(Fs delegate, Predicate<Path> direct) {
    super(delegate);
    this.direct = direct;
  }

  @Override
  protected FsFile wrap(Path path, FsFile file) {
    return direct.test(path) ? new DirectReadFile(path, file, this) : file;
  }

  /** The block size {@code O_DIRECT} reads of {@code path} align to: its directory's file store's. */
  int alignment(Path path) throws IOException {
    Path dir = path.toAbsolutePath().getParent();
    Integer known = alignments.get(dir);
    if (known != null) {
      return known;
    }
    int size = Math.toIntExact(Files.getFileStore(path).getBlockSize());
    alignments.putIfAbsent(dir, size);
    return size;
  }

  /** A file whose reads go through a second, {@code O_DIRECT} channel opened on first read. */
  private static final class DirectReadFile extends ForwardingFsFile {

    private static final ThreadLocal<ByteBuffer[]> BUFFERS = ThreadLocal.withInitial(() -> new ByteBuffer[1]);

    private final Path path;
    private final DirectReadFs fs;
    private volatile FileChannel channel;
    private volatile int alignment;

    DirectReadFile(Path path, FsFile delegate, DirectReadFs fs) {
      super(delegate);
      this.path = path;
      this.fs = fs;
    }

    /** The direct channel, opened by the first read; later reads take no lock. */
    private FileChannel channel() throws IOException {
      FileChannel ch = channel;
      if (ch != null) {
        return ch;
      }
      synchronized (this) {
        if (channel == null) {
          alignment = fs.alignment(path);
          channel = FileChannel.open(path, StandardOpenOption.READ, com.sun.nio.file.ExtendedOpenOption.DIRECT);
        }
        return channel;
      }
    }

    @Override
    public void readFully(long position, ByteBuffer dst) throws IOException {
      FileChannel ch = channel();
      int align = alignment;
      long start = position - Math.floorMod(position, align);
      long end = position + dst.remaining();
      int length = Math.toIntExact(((end - start + align - 1) / align) * align);
      ByteBuffer buf = buffer(length, align);
      long pos = start;
      while (buf.hasRemaining()) {
        int n = ch.read(buf, pos);
        if (n <= 0) {
          break; // end of file
        }
        pos += n;
        if (pos % align != 0) {
          break; // a short, unaligned read ends at the end of the file
        }
      }
      if (start + buf.position() < end) {
        throw new EOFException(path + ": read past end at offset " + (start + buf.position()));
      }
      buf.flip();
      buf.position(Math.toIntExact(position - start));
      buf.limit(Math.toIntExact(end - start));
      dst.put(buf);
    }

    /** The calling thread's aligned buffer, at least {@code length} bytes, cleared to {@code length}. */
    private static ByteBuffer buffer(int length, int align) {
      ByteBuffer[] slot = BUFFERS.get();
      if (slot[0] == null || slot[0].capacity() < length) {
        int capacity = Math.max(length, 64 << 10);
        slot[0] = ByteBuffer.allocateDirect(capacity + align).alignedSlice(align);
      }
      ByteBuffer b = slot[0];
      b.clear();
      b.limit(length);
      return b;
    }

    @Override
    public void close() throws IOException {
      try {
        super.close();
      } finally {
        synchronized (this) {
          if (channel != null) {
            channel.close();
          }
        }
      }
    }
  }
}
