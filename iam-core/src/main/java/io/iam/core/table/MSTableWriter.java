package io.iam.core.table;

import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import io.iam.core.key.InternalKeyComparator;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.Lock;

/**
 * Writes sorted sequences into an MSTable file, one at a time: {@link #beginSequence()}, add
 * entries in order, {@link SequenceWriter#finish()}. A sequence becomes visible (to readers opened
 * afterwards and to {@link #openForAppend}) only when finish rewrites the footer; until then, and
 * after any failure, the file still reads as it did before the sequence began.
 *
 * <p>Two kinds of file: {@code create(..., capacityBytes = 0, ...)} makes a <i>compact</i> file,
 * laid out as an ordinary SSTable (one sequence, its metadata right after its data, then the
 * footer), which takes no appends. {@code capacityBytes > 0} makes a file of exactly that length
 * (a sparse hole) with the footer at its end; each sequence's data follows the previous one's and
 * its metadata is stacked below the previous one's, until a sequence no longer fits ({@link
 * TableFullException}).
 *
 * <p>After an I/O error the writer is <i>failed</i>: it refuses new sequences (the file still holds
 * its committed sequences; reopen it with {@link #openForAppend}). A {@link TableFullException}
 * does not fail the writer. The caller makes the file's directory entry durable ({@link
 * Fs#syncDirectory}) after {@link #create}. Single-threaded: one thread uses a writer and its
 * sequence writers.
 */
public final class MSTableWriter implements Closeable {

  private final Path path;
  private final long fileNumber;
  private final TableOptions opts;
  private final InternalKeyComparator cmp;
  private final FsFile file;
  /** The committed state; null for a new compact file whose sequence is not finished yet. */
  private Footer footer;
  private long footerOffset;
  private SequenceWriter active;
  private boolean failed;
  private boolean closed;
  /**
   * Whether this writer created the file and no sequence has committed yet: nothing can refer to
   * the file, so its first commit needs no sync between the data and the footer.
   */
  private boolean fresh;
  private BlockListener blockListener;
  private SyncListener syncListener;
  /** Held while the footer is rewritten in place, so that no reader sees it half written; null: none. */
  private Lock footerLock;

  /** Told each data block a sequence writes, as it is stored in the file (payload and trailer). */
  @FunctionalInterface
  public interface BlockListener {
    /** {@code block} is the listener's to keep. */
    void dataBlock(long offset, byte[] block);
  }

  /**
   * Has every data block of the sequences written from now on reported to {@code listener} (for
   * example to put them in a block cache once the sequence commits); null to stop.
   */
  public void setBlockListener(BlockListener listener) {
    this.blockListener = listener;
  }

  BlockListener blockListener() {
    return blockListener;
  }

  /** Has the syncs of the sequences committed from now on reported to {@code listener}; null to stop. */
  public void setSyncListener(SyncListener listener) {
    this.syncListener = listener;
  }

  /**
   * Has every in-place rewrite of the footer made under {@code lock}, which readers of the file
   * also take to read the footer. The lock is held only for the write itself, never across a sync.
   */
  public void setFooterLock(Lock lock) {
    this.footerLock = lock;
  }

  private void writeFooter(long offset, Footer f) throws IOException {
    Lock l = footerLock;
    if (l != null) {
      l.lock();
    }
    try {
      file.write(offset, ByteBuffer.wrap(f.encode()));
    } finally {
      if (l != null) {
        l.unlock();
      }
    }
  }

  /** Syncs the file, telling the {@link SyncListener} around the wait. */
  private void sync() throws IOException {
    SyncListener l = syncListener;
    if (l == null) {
      file.sync();
      return;
    }
    l.beforeSync();
    try {
      file.sync();
    } finally {
      l.afterSync();
    }
  }

  private MSTableWriter(Path path, long fileNumber, TableOptions opts, InternalKeyComparator cmp, FsFile file,
      Footer footer, long footerOffset, boolean fresh) {
    this.path = path;
    this.fileNumber = fileNumber;
    this.opts = opts;
    this.cmp = cmp;
    this.file = file;
    this.footer = footer;
    this.footerOffset = footerOffset;
    this.fresh = fresh;
  }

  /**
   * Creates a new table file (it must not exist). Nothing may refer to the file (a manifest, say)
   * before its first sequence has committed: that commit makes the sequence and its footer durable
   * with a single sync, so a crash before it ends can leave the file in any state.
   *
   * @param capacityBytes 0 for a compact file holding exactly one sequence; otherwise the file's
   *     fixed length (at least 4096; a multiple of 4096 keeps the footer inside one sector)
   * @throws IllegalArgumentException if {@code capacityBytes} is negative or below 4096
   */
  public static MSTableWriter create(Fs fs, Path path, long fileNumber, long capacityBytes, TableOptions opts,
      InternalKeyComparator cmp) throws IOException {
    Objects.requireNonNull(opts, "opts");
    Objects.requireNonNull(cmp, "cmp");
    if (capacityBytes < 0 || (capacityBytes > 0 && capacityBytes < 4096)) {
      throw new IllegalArgumentException("capacityBytes must be 0 (compact) or at least 4096: " + capacityBytes);
    }
    FsFile f = fs.open(path, Fs.Mode.CREATE_NEW);
    if (capacityBytes == 0) {
      return new MSTableWriter(path, fileNumber, opts, cmp, f, null, -1, true);
    }
    long fo = capacityBytes - Footer.SIZE;
    Footer empty = Footer.empty(fo);
    try {
      // Not synced: the file is of no use until its first sequence commits, and that commit syncs
      // the data before it rewrites this footer. A crash before then leaves a file no one refers to.
      f.write(fo, ByteBuffer.wrap(empty.encode()));
    } catch (IOException | RuntimeException e) {
      closeQuietly(f, e);
      throw e;
    }
    return new MSTableWriter(path, fileNumber, opts, cmp, f, empty, fo, true);
  }

  /** Opens an existing table file to append sequences after all those its footer records. */
  public static MSTableWriter openForAppend(Fs fs, Path path, long fileNumber, TableOptions opts,
      InternalKeyComparator cmp) throws IOException {
    return openForAppend(fs, path, fileNumber, opts, cmp, -1);
  }

  /**
   * Opens an existing table file to append after its oldest {@code keepSequences} sequences (those
   * the manifest recorded). If the file holds more, the newer ones are dropped at once: the footer
   * is rewritten and synced before this returns, and their space is reused. A block cache that
   * may hold blocks of dropped sequences must then be cleared for this file ({@code
   * BlockCache.evictFile}).
   *
   * @param keepSequences sequences to keep, or -1 for all
   * @throws TableCorruptionException if the footer or metadata fails verification, or the file
   *     holds fewer than {@code keepSequences} sequences
   */
  public static MSTableWriter openForAppend(Fs fs, Path path, long fileNumber, TableOptions opts,
      InternalKeyComparator cmp, int keepSequences) throws IOException {
    Objects.requireNonNull(opts, "opts");
    Objects.requireNonNull(cmp, "cmp");
    if (keepSequences < -1) {
      throw new IllegalArgumentException("keepSequences must be -1 or at least 0: " + keepSequences);
    }
    if (!fs.exists(path)) {
      throw new NoSuchFileException(path.toString());
    }
    FsFile f = fs.open(path, Fs.Mode.WRITE);
    try {
      TableMetadata.Loaded loaded = TableMetadata.load(f, path, keepSequences, false, cmp);
      Footer footer = loaded.footer();
      if (keepSequences >= 0 && keepSequences < footer.sequenceCount()) {
        footer = rolledBack(loaded.sequences(), loaded.footerOffset());
        f.write(loaded.footerOffset(), ByteBuffer.wrap(footer.encode()));
        f.sync();
      }
      return new MSTableWriter(path, fileNumber, opts, cmp, f, footer, loaded.footerOffset(), false);
    } catch (IOException | RuntimeException e) {
      closeQuietly(f, e);
      throw e;
    }
  }

  private static Footer rolledBack(List<TableMetadata.Sequence> kept, long footerOffset) {
    if (kept.isEmpty()) {
      return Footer.empty(footerOffset);
    }
    TableMetadata.Sequence newest = kept.get(kept.size() - 1);
    return new Footer(TableFormat.VERSION, kept.size(), newest.props().handle().dataEnd(), newest.pointer().offset(),
        newest.pointer().length(), newest.pointer().propsLength());
  }

  /**
   * Starts a new sequence; at most one is open at a time.
   *
   * @throws IllegalStateException if a sequence is already open or the writer is closed
   * @throws IOException if the writer failed earlier
   */
  public SequenceWriter beginSequence() throws IOException {
    checkOpen();
    if (active != null) {
      throw new IllegalStateException("a sequence is already being written to " + path);
    }
    if (failed) {
      throw new IOException("writer of " + path + " failed earlier; reopen the file with openForAppend");
    }
    active = new SequenceWriter(this, footer == null ? 0 : footer.sequenceCount(), holeStart(), opts, cmp);
    return active;
  }

  /** Committed sequences in the file. */
  public int sequenceCount() {
    return footer == null ? 0 : footer.sequenceCount();
  }

  /**
   * Bytes free in the hole for the next sequence's data and metadata together; {@link
   * Long#MAX_VALUE} for a compact file that has no sequence yet, 0 once it has one.
   */
  public long freeBytes() {
    return holeEnd() == Long.MAX_VALUE ? Long.MAX_VALUE : holeEnd() - holeStart();
  }

  /** The file's length once its committed state is on disk (-1 for a compact file still empty). */
  public long fileSize() {
    return footer == null ? -1 : footerOffset + Footer.SIZE;
  }

  /**
   * Bytes the committed sequences take: their data, their metadata and the footer; for a capacity
   * file this excludes the free hole (the file's length is its capacity).
   */
  public long usedBytes() {
    if (footer == null) {
      return 0;
    }
    long end = footerOffset + Footer.SIZE;
    return holeStart() + (end - holeEnd());
  }

  public Path path() {
    return path;
  }

  public long fileNumber() {
    return fileNumber;
  }

  /** Abandons an unfinished sequence and closes the file. Idempotent. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    if (active != null) {
      active.abandon();
    }
    closed = true;
    file.close();
  }

  // ---- used by SequenceWriter ----

  long holeStart() {
    return footer == null ? 0 : footer.dataEnd();
  }

  long holeEnd() {
    return footer == null ? Long.MAX_VALUE : footer.metaOffset();
  }

  /** Where the newest committed sequence's metadata is. */
  SequenceProps.MetaPointer newestMetaPointer() {
    return new SequenceProps.MetaPointer(footer.metaOffset(), footer.metaLength(), footer.propsLength());
  }

  Path filePath() {
    return path;
  }

  void write(long offset, byte[] b, int off, int len) throws IOException {
    file.write(offset, ByteBuffer.wrap(b, off, len));
  }

  void ended(SequenceWriter w) {
    if (active == w) {
      active = null;
    }
  }

  void fail() {
    failed = true;
  }

  void checkOpen() {
    if (closed) {
      throw new IllegalStateException("writer of " + path + " is closed");
    }
  }

  /**
   * Where a sequence's metadata goes: right after its data in a new compact file, otherwise just
   * below the newest metadata.
   *
   * @throws TableFullException if data and metadata do not fit in the hole
   */
  long placeMetadata(long dataEnd, long metaLength) throws TableFullException {
    if (footer == null) {
      return dataEnd;
    }
    long metaOffset = holeEnd() - metaLength;
    if (metaOffset < dataEnd) {
      throw new TableFullException(path, dataEnd - holeStart() + metaLength, freeBytes());
    }
    return metaOffset;
  }

  /**
   * Commits a sequence whose data and metadata are written: syncs them, then writes and syncs the
   * new footer. If that fails, puts the previous footer back (best effort) and rethrows.
   */
  void commit(SequenceHandle h, int propsLength) throws IOException {
    if (!fresh) {
      // The footer is rewritten in place: the sequence must be durable before a footer names it.
      // A file this writer created is named by nothing until its first sequence has committed (the
      // caller records it afterwards), so a crash before the one sync below leaves only garbage
      // no one reads, and that commit skips this sync.
      sync();
    }
    Footer next = new Footer(TableFormat.VERSION, sequenceCount() + 1, h.dataEnd(), h.metaOffset(), h.metaLength(),
        propsLength);
    long fo = footer == null ? h.metaOffset() + h.metaLength() : footerOffset;
    try {
      writeFooter(fo, next);
      if (footer == null && file.size() > fo + Footer.SIZE) {
        // A new compact file ends at its footer; drop what an abandoned attempt left beyond it.
        file.truncate(fo + Footer.SIZE);
      }
      sync();
    } catch (IOException | RuntimeException e) {
      if (footer != null) {
        try {
          writeFooter(fo, footer);
          sync();
        } catch (IOException | RuntimeException restore) {
          e.addSuppressed(restore);
        }
      }
      throw e;
    }
    footer = next;
    footerOffset = fo;
    fresh = false;
  }

  private static void closeQuietly(FsFile f, Throwable primary) {
    try {
      f.close();
    } catch (IOException | UncheckedIOException e) {
      primary.addSuppressed(e);
    }
  }

  @Override
  public String toString() {
    return "MSTableWriter[" + path + ", " + sequenceCount() + " sequences, " + (footer == null ? "compact" : freeBytes() + " bytes free") + "]";
  }
}
