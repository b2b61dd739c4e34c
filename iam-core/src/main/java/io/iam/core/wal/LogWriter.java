package io.iam.core.wal;

import static io.iam.core.wal.LogFormat.BLOCK_SIZE;
import static io.iam.core.wal.LogFormat.FIRST_TYPE;
import static io.iam.core.wal.LogFormat.FULL_TYPE;
import static io.iam.core.wal.LogFormat.HEADER_SIZE;
import static io.iam.core.wal.LogFormat.LAST_TYPE;
import static io.iam.core.wal.LogFormat.MIDDLE_TYPE;

import io.iam.core.fs.FsFile;
import io.iam.core.util.Checksums;
import io.iam.core.util.Coding;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * Appends records to a log file in the format described in the {@linkplain io.iam.core.wal
 * package description}.
 *
 * <p>Each record, with its fragment headers and any block trailer before it, is built in a
 * reusable buffer and handed to the file in a single positional write, so the OS only ever sees
 * whole records.
 *
 * <p><b>Failures.</b> If a write or a sync fails, the state of the file past the last successful
 * sync is unknown (a write may have landed in part; after a failed fsync the kernel may have
 * dropped dirty pages). The writer then refuses further writes and syncs with an {@link
 * IOException} whose cause is the original failure; the owner should recover from the file (or
 * start a new log). {@link #size()} keeps reporting the end of the last record written in full.
 *
 * <p><b>Continuing a log.</b> Bytes past the starting offset are stale (a torn tail, for one):
 * the first {@link #addRecord} truncates the file to the offset if it is longer, so stale bytes
 * can never be read as records. An offset past the end of the file is refused.
 *
 * <p>Not thread-safe: callers serialize {@code addRecord}, {@code sync} and {@code close}. {@link
 * #size()} may be read from any thread.
 */
public final class LogWriter implements Closeable {

  /** Record buffers larger than this are released after use rather than kept for reuse. */
  private static final int MAX_RETAINED_BUFFER = 1 << 20;

  private final FsFile file;
  private final Path path;
  private volatile long position;
  /** Offset of {@link #position} within its block. */
  private int blockOffset;
  private byte[] buffer = new byte[BLOCK_SIZE];
  private boolean tailChecked;
  private IOException failure;
  private boolean closed;

  /**
   * Appends records to {@code file} starting at byte {@code offset} (0 for a new log; the valid
   * length when reusing). Does no I/O.
   *
   * @param path the file's path, for messages
   */
  public LogWriter(FsFile file, Path path, long offset) {
    if (offset < 0) {
      throw new IllegalArgumentException("negative offset " + offset);
    }
    this.file = Objects.requireNonNull(file, "file");
    this.path = Objects.requireNonNull(path, "path");
    this.position = offset;
    this.blockOffset = (int) (offset % BLOCK_SIZE);
  }

  /** Appends one record; when it returns, the bytes have been handed to the OS (not yet synced). */
  public void addRecord(byte[] payload) throws IOException {
    addRecord(payload, 0, payload.length);
  }

  /**
   * Appends {@code payload[off, off+len)} as one record; when it returns, the bytes have been
   * handed to the OS (not yet synced).
   */
  public void addRecord(byte[] payload, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, payload.length);
    checkUsable();
    long encoded = encodedLength(blockOffset, len);
    if (encoded > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("record of " + len + " bytes is too large for one write");
    }
    if (!tailChecked) {
      long fileSize = file.size();
      if (fileSize < position) {
        throw new IOException(path + ": cannot append at offset " + position + ", the file has only " + fileSize + " bytes");
      }
      if (fileSize > position) {
        file.truncate(position);
      }
      tailChecked = true;
    }
    int n = (int) encoded;
    byte[] buf = buffer.length >= n ? buffer : new byte[Math.max(n, Math.min(2 * buffer.length, MAX_RETAINED_BUFFER))];
    int newBlockOffset = encode(buf, payload, off, len);
    try {
      file.write(position, ByteBuffer.wrap(buf, 0, n));
    } catch (IOException | RuntimeException e) {
      failure = e instanceof IOException io ? io : new IOException(e);
      throw e;
    }
    buffer = buf.length <= MAX_RETAINED_BUFFER ? buf : buffer;
    position += n;
    blockOffset = newBlockOffset;
  }

  /** Forces everything written so far to stable storage. */
  public void sync() throws IOException {
    checkUsable();
    try {
      file.sync();
    } catch (IOException | RuntimeException e) {
      failure = e instanceof IOException io ? io : new IOException(e);
      throw e;
    }
  }

  /** Bytes written so far (the append position): the end of the last record written in full. */
  public long size() {
    return position;
  }

  /** Closes the file. Does not sync. */
  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      file.close();
    }
  }

  private void checkUsable() throws IOException {
    if (closed) {
      throw new IOException("log writer for " + path + " is closed");
    }
    if (failure != null) {
      throw new IOException("log writer for " + path + " failed earlier and accepts no more writes: " + failure.getMessage(), failure);
    }
  }

  /** Bytes a record of {@code len} bytes takes when it starts at {@code blockOffset}. */
  static long encodedLength(int blockOffset, int len) {
    long n = 0;
    int bo = blockOffset;
    int left = len;
    do {
      int leftover = BLOCK_SIZE - bo;
      if (leftover < HEADER_SIZE) {
        n += leftover;
        bo = 0;
      }
      int fragment = Math.min(left, BLOCK_SIZE - bo - HEADER_SIZE);
      n += HEADER_SIZE + fragment;
      bo += HEADER_SIZE + fragment;
      left -= fragment;
    } while (left > 0);
    return n;
  }

  /** Fills {@code buf} with the record; returns the block offset after it. */
  private int encode(byte[] buf, byte[] payload, int off, int len) {
    int n = 0;
    int bo = blockOffset;
    int p = off;
    int left = len;
    boolean begin = true;
    do {
      int leftover = BLOCK_SIZE - bo;
      if (leftover < HEADER_SIZE) {
        Arrays.fill(buf, n, n + leftover, (byte) 0);
        n += leftover;
        bo = 0;
      }
      int fragment = Math.min(left, BLOCK_SIZE - bo - HEADER_SIZE);
      boolean end = fragment == left;
      int type = begin ? (end ? FULL_TYPE : FIRST_TYPE) : (end ? LAST_TYPE : MIDDLE_TYPE);
      int crc = Checksums.mask(Checksums.crc32c((byte) type, payload, p, fragment));
      Coding.putFixed32(buf, n, crc);
      buf[n + 4] = (byte) fragment;
      buf[n + 5] = (byte) (fragment >>> 8);
      buf[n + 6] = (byte) type;
      System.arraycopy(payload, p, buf, n + HEADER_SIZE, fragment);
      n += HEADER_SIZE + fragment;
      bo += HEADER_SIZE + fragment;
      p += fragment;
      left -= fragment;
      begin = false;
    } while (left > 0);
    return bo;
  }

  @Override
  public String toString() {
    return "LogWriter[" + path + " @" + position + "]";
  }
}
