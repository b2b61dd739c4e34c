package io.iam.core.wal;

import static io.iam.core.wal.LogFormat.BLOCK_SIZE;
import static io.iam.core.wal.LogFormat.FIRST_TYPE;
import static io.iam.core.wal.LogFormat.FULL_TYPE;
import static io.iam.core.wal.LogFormat.HEADER_SIZE;
import static io.iam.core.wal.LogFormat.LAST_TYPE;
import static io.iam.core.wal.LogFormat.MIDDLE_TYPE;
import static io.iam.core.wal.LogFormat.ZERO_TYPE;
import static io.iam.core.wal.LogFormat.nextBlockStart;
import static io.iam.core.wal.LogFormat.typeName;

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
 * Reads the records of a log written by {@link LogWriter}, in order.
 *
 * <p><b>Damage.</b> When parsing meets bytes that are not part of a valid record (a checksum
 * mismatch, an impossible length or type, a fragment or record cut off by the end of the file, a
 * fragment out of sequence, zeros where a fragment should be), the reader looks for a complete,
 * checksum-verified record after it: from where the damaged fragment's header says it ends when
 * only its checksum failed, otherwise from the next block boundary, and on from block boundary to
 * block boundary (every block starts with a real fragment header, so it never looks inside
 * payloads for records). If it finds none, the damage is a torn tail; if it finds one, it is
 * corruption. Then, by {@link RecoveryMode}:
 *
 * <ul>
 *   <li>torn tail: {@code TOLERATE_CORRUPTED_TAIL} and {@code SKIP_CORRUPTED_RECORDS} end the log,
 *       set {@link #tornTail()} and count every byte past the last record returned in {@link
 *       #droppedBytes()} (so in {@code TOLERATE_CORRUPTED_TAIL} it is the file's length minus
 *       {@link #validLength()}); {@code ABSOLUTE_CONSISTENCY} throws;
 *   <li>corruption: {@code TOLERATE_CORRUPTED_TAIL} and {@code ABSOLUTE_CONSISTENCY} throw a {@link
 *       WalCorruptionException} naming the file and the bad fragment's offset; {@code
 *       SKIP_CORRUPTED_RECORDS} drops the damaged record and resumes at the next block (pieces of
 *       records found there whose start was lost are dropped as well), counting the bytes from
 *       the end of the last record returned to where it resumes.
 * </ul>
 *
 * Zero-filled space that starts where a record could start and runs to the end of the file is a
 * clean end in every mode, not damage. Non-zero bytes in a block trailer (too short for a header)
 * are an error in {@code ABSOLUTE_CONSISTENCY} and ignored otherwise, as no record covers them.
 *
 * <p>The file's length is taken at the first {@link #next()}; bytes appended later are not read.
 * Once {@link #next()} has thrown, it throws the same exception again. Not thread-safe.
 */
public final class LogReader implements Closeable {

  /** Record buffers larger than this are released after use rather than kept for reuse. */
  private static final int MAX_RETAINED_BUFFER = 1 << 20;

  private final FsFile file;
  private final Path path;
  private final RecoveryMode mode;

  private long fileSize = -1;
  private Cursor cursor;
  private Cursor lookahead;
  /** A known offset where a complete valid record starts, or -1. */
  private long knownRecordAt = -1;

  private byte[] scratch = new byte[0];
  private int scratchLength;

  private long validLength;
  /** Bytes before this offset were either returned in records or counted as dropped. */
  private long accountedTo;
  private boolean tornTail;
  private long droppedBytes;
  private boolean done;
  private IOException failure;
  private boolean closed;

  public LogReader(FsFile file, Path path, RecoveryMode mode) {
    this.file = Objects.requireNonNull(file, "file");
    this.path = Objects.requireNonNull(path, "path");
    this.mode = Objects.requireNonNull(mode, "mode");
  }

  /**
   * The next record's payload, or null at the end of the log.
   *
   * @throws WalCorruptionException per the mode
   */
  public byte[] next() throws IOException {
    if (failure != null) {
      throw failure;
    }
    if (closed) {
      throw new IOException("log reader for " + path + " is closed");
    }
    if (done) {
      return null;
    }
    try {
      return readRecord();
    } catch (IOException e) {
      failure = e;
      throw e;
    }
  }

  /** Offset just past the last record returned; a writer may truncate here and continue. */
  public long validLength() {
    return validLength;
  }

  /** Whether the log ended in a torn/incomplete tail that was dropped. */
  public boolean tornTail() {
    return tornTail;
  }

  /** Bytes skipped as corrupt or torn. */
  public long droppedBytes() {
    return droppedBytes;
  }

  /** Closes the file. */
  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      file.close();
    }
  }

  private byte[] readRecord() throws IOException {
    if (cursor == null) {
      fileSize = file.size();
      cursor = new Cursor(file, fileSize, mode == RecoveryMode.ABSOLUTE_CONSISTENCY);
      cursor.seek(0);
    }
    boolean inRecord = false;
    long recordStart = 0;
    while (true) {
      int status = cursor.read();
      long at = cursor.fragmentOffset;
      if (status == Cursor.END) {
        if (!inRecord) {
          done = true;
          return null;
        }
        handleDamage(recordStart, false, fileSize, fileSize,
            "record starting at offset " + recordStart + " is cut off by the end of the file");
        return null; // handleDamage ends the log here: nothing follows the end of the file
      }
      if (status == Cursor.BAD) {
        long lookFrom = cursor.damagedLengthTrusted ? cursor.damagedEnd : nextBlockStart(at);
        String detail = inRecord ? cursor.problem + " (in the record starting at offset " + recordStart + ")" : cursor.problem;
        if (!handleDamage(at, !inRecord, lookFrom, nextBlockStart(at), detail)) {
          return null;
        }
        inRecord = false;
        continue;
      }
      int type = cursor.type;
      switch (type) {
        case FULL_TYPE, FIRST_TYPE -> {
          if (inRecord) {
            // The record in progress lost its end; this fragment starts another one: reread it.
            if (!handleDamage(at, false, at, at, "record starting at offset " + recordStart
                + " is missing its LAST fragment; a " + typeName(type) + " fragment follows")) {
              return null;
            }
            inRecord = false;
            continue;
          }
          if (type == FULL_TYPE) {
            validLength = accountedTo = cursor.position();
            return Arrays.copyOfRange(cursor.block, cursor.payloadOffset, cursor.payloadOffset + cursor.payloadLength);
          }
          inRecord = true;
          recordStart = at;
          scratchLength = 0;
          append();
        }
        case MIDDLE_TYPE, LAST_TYPE -> {
          if (!inRecord) {
            long end = cursor.position();
            if (!handleDamage(at, true, end, end, typeName(type) + " fragment without the start of its record")) {
              return null;
            }
            continue;
          }
          append();
          if (type == LAST_TYPE) {
            validLength = accountedTo = cursor.position();
            byte[] record = Arrays.copyOf(scratch, scratchLength);
            if (scratch.length > MAX_RETAINED_BUFFER) {
              scratch = new byte[0];
            }
            return record;
          }
        }
        default -> throw new AssertionError(type);
      }
    }
  }

  private void append() {
    int len = cursor.payloadLength;
    if (scratch.length - scratchLength < len) {
      long wanted = Math.max((long) scratchLength + len, 2L * scratch.length);
      if ((long) scratchLength + len > Integer.MAX_VALUE - 16) {
        throw new OutOfMemoryError(path + ": record too large to assemble");
      }
      scratch = Arrays.copyOf(scratch, (int) Math.min(wanted, Integer.MAX_VALUE - 16));
    }
    System.arraycopy(cursor.block, cursor.payloadOffset, scratch, scratchLength, len);
    scratchLength += len;
  }

  /**
   * Decides what damage means and acts on it.
   *
   * @param badOffset where the damaged (or out-of-sequence) fragment is
   * @param atRecordBoundary whether {@code badOffset} is where a record could start
   * @param lookFrom where to start looking for a valid record after the damage
   * @param resumeAt where salvage continues
   * @return true if reading continues (the cursor is at {@code resumeAt}), false if the log ended
   */
  private boolean handleDamage(long badOffset, boolean atRecordBoundary, long lookFrom, long resumeAt, String detail)
      throws IOException {
    if (atRecordBoundary && zerosToEnd(badOffset)) {
      done = true; // zero-filled (preallocated) space: a clean end
      return false;
    }
    if (mode == RecoveryMode.ABSOLUTE_CONSISTENCY) {
      throw new WalCorruptionException(path, badOffset, detail);
    }
    if (!validRecordFrom(lookFrom)) {
      tornTail = true;
      droppedBytes += fileSize - accountedTo;
      accountedTo = fileSize;
      done = true;
      return false;
    }
    if (mode == RecoveryMode.TOLERATE_CORRUPTED_TAIL) {
      throw new WalCorruptionException(path, badOffset,
          detail + "; valid records follow (at offset " + knownRecordAt + "), so this is not a torn tail");
    }
    long resume = Math.min(resumeAt, fileSize);
    droppedBytes += resume - accountedTo;
    accountedTo = resume;
    cursor.seek(resume);
    return true;
  }

  /** Whether every byte from {@code offset} to the end of the file is zero. */
  private boolean zerosToEnd(long offset) throws IOException {
    byte[] buf = new byte[(int) Math.min(BLOCK_SIZE, Math.max(0, fileSize - offset))];
    for (long pos = offset; pos < fileSize; ) {
      int n = (int) Math.min(buf.length, fileSize - pos);
      file.readFully(pos, ByteBuffer.wrap(buf, 0, n));
      for (int i = 0; i < n; i++) {
        if (buf[i] != 0) {
          return false;
        }
      }
      pos += n;
    }
    return true;
  }

  /**
   * Whether a complete, verified record starts at or after {@code from}: parses from there, and
   * from the next block boundary past any damage.
   */
  private boolean validRecordFrom(long from) throws IOException {
    if (knownRecordAt >= from) {
      return true;
    }
    if (from >= fileSize) {
      return false;
    }
    if (lookahead == null) {
      lookahead = new Cursor(file, fileSize, false);
    }
    Cursor c = lookahead;
    c.seek(from);
    long recordStart = -1;
    while (true) {
      int status = c.read();
      if (status == Cursor.END) {
        return false;
      }
      if (status == Cursor.BAD) {
        recordStart = -1;
        long next = nextBlockStart(c.fragmentOffset);
        if (next >= fileSize) {
          return false;
        }
        c.seek(next);
        continue;
      }
      switch (c.type) {
        case FULL_TYPE -> {
          knownRecordAt = c.fragmentOffset;
          return true;
        }
        case FIRST_TYPE -> recordStart = c.fragmentOffset;
        case LAST_TYPE -> {
          if (recordStart >= 0) {
            knownRecordAt = recordStart;
            return true;
          }
        }
        default -> { } // MIDDLE: continues a record, or is an orphan to step over
      }
    }
  }

  /** Reads fragments one by one from a snapshot of the file's length. */
  private static final class Cursor {
    static final int FRAGMENT = 0;
    static final int END = 1;
    static final int BAD = 2;

    private final FsFile file;
    private final long fileSize;
    private final boolean strictTrailers;
    final byte[] block = new byte[BLOCK_SIZE];
    private long blockStart = -1;
    private int blockLength;
    private int pos;

    /** Offset of the fragment (or of the damage) the last {@link #read()} looked at. */
    long fragmentOffset;
    int type;
    int payloadOffset;
    int payloadLength;
    /** For {@link #BAD}: what is wrong. */
    String problem;
    /** For {@link #BAD}: whether only the checksum failed, so the header's length is plausible. */
    boolean damagedLengthTrusted;
    /** For {@link #BAD} with a trusted length: where the damaged fragment ends. */
    long damagedEnd;

    Cursor(FsFile file, long fileSize, boolean strictTrailers) {
      this.file = file;
      this.fileSize = fileSize;
      this.strictTrailers = strictTrailers;
    }

    /** Positions the cursor at {@code offset}. */
    void seek(long offset) throws IOException {
      long start = offset - offset % BLOCK_SIZE;
      if (start != blockStart) {
        blockStart = start;
        blockLength = (int) Math.max(0, Math.min(BLOCK_SIZE, fileSize - start));
        if (blockLength > 0) {
          file.readFully(start, ByteBuffer.wrap(block, 0, blockLength));
        }
      }
      pos = (int) (offset - start);
    }

    /** The offset just past the last fragment read. */
    long position() {
      return blockStart + pos;
    }

    /**
     * Reads the fragment at the cursor. On {@link #FRAGMENT} the cursor moves past it; on {@link
     * #BAD} it stays.
     */
    int read() throws IOException {
      damagedLengthTrusted = false;
      while (true) {
        long at = blockStart + pos;
        fragmentOffset = at;
        if (at >= fileSize) {
          return END;
        }
        int remaining = blockLength - pos;
        if (remaining < HEADER_SIZE) {
          if (blockLength < BLOCK_SIZE) {
            problem = pos > BLOCK_SIZE - HEADER_SIZE
                ? "block trailer cut off by the end of the file"
                : "fragment header cut off by the end of the file (" + remaining + " of " + HEADER_SIZE + " bytes)";
            return BAD;
          }
          if (strictTrailers) {
            for (int i = pos; i < BLOCK_SIZE; i++) {
              if (block[i] != 0) {
                problem = "non-zero byte in the block trailer";
                return BAD;
              }
            }
          }
          seek(blockStart + BLOCK_SIZE);
          continue;
        }
        int length = (block[pos + 4] & 0xFF) | (block[pos + 5] & 0xFF) << 8;
        int t = block[pos + 6] & 0xFF;
        if (t == ZERO_TYPE) {
          problem = length == 0 && Coding.getFixed32(block, pos) == 0 ? "zeros where a fragment header should be" : "fragment of reserved type 0";
          return BAD;
        }
        if (t > LAST_TYPE) {
          problem = "fragment of unknown type " + t;
          return BAD;
        }
        if (length > remaining - HEADER_SIZE) {
          problem = blockLength < BLOCK_SIZE && pos + HEADER_SIZE + length <= BLOCK_SIZE
              ? typeName(t) + " fragment of " + length + " bytes cut off by the end of the file"
              : typeName(t) + " fragment length " + length + " runs past the end of its block";
          return BAD;
        }
        int stored = Checksums.unmask(Coding.getFixed32(block, pos));
        int actual = Checksums.crc32c((byte) t, block, pos + HEADER_SIZE, length);
        if (stored != actual) {
          problem = "checksum mismatch in a " + typeName(t) + " fragment of " + length + " bytes";
          damagedLengthTrusted = true;
          damagedEnd = at + HEADER_SIZE + length;
          return BAD;
        }
        type = t;
        payloadOffset = pos + HEADER_SIZE;
        payloadLength = length;
        pos += HEADER_SIZE + length;
        return FRAGMENT;
      }
    }
  }

  @Override
  public String toString() {
    return "LogReader[" + path + " " + mode + " @" + validLength + "]";
  }
}
