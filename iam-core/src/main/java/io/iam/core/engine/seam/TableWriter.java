package io.iam.core.engine.seam;

import com.google.common.util.concurrent.RateLimiter;
import io.iam.core.cache.BlockCache;
import io.iam.core.fs.Fs;
import io.iam.core.iter.InternalIterator;
import io.iam.core.iter.MergingIterator;
import io.iam.core.iter.Slice;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.KeyComparator;
import io.iam.core.key.ValueType;
import io.iam.core.table.MSTableWriter;
import io.iam.core.table.SequenceHandle;
import io.iam.core.table.SequenceWriter;
import io.iam.core.table.SyncListener;
import io.iam.core.table.TableFullException;
import io.iam.core.table.TableOptions;
import io.iam.core.tree.CompactionPick;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.function.LongSupplier;

/**
 * Writes the engine's table files from sorted input, for flushes and compactions alike: new files
 * (cut at a size, between user keys), and new sequences appended to node files. Drops versions no
 * reader can see, paces its bytes through a rate limiter, can put what it writes in the block
 * cache, and syncs the directory before a new file can be named by the manifest. Reads inputs and
 * takes footer locks through the {@link TableCache}. Thread-safe: every call writes its own files.
 */
public final class TableWriter {

  private static final long RATE_CHUNK = 64 << 10;

  private final TableCache reads;
  private final Fs fs;
  private final Path dir;
  private final BlockCache cache;
  private final TableOptions tableOptions;
  private final InternalKeyComparator cmp;
  private final long targetFileSize;

  /**
   * Writes table files of format {@code tableOptions} into {@code dir}; compactions cut their
   * outputs at about {@code targetFileSize} bytes.
   */
  public TableWriter(TableCache reads, Fs fs, Path dir, BlockCache cache, TableOptions tableOptions,
      InternalKeyComparator cmp, long targetFileSize) {
    this.reads = reads;
    this.fs = fs;
    this.dir = dir;
    this.cache = cache;
    this.tableOptions = tableOptions;
    this.cmp = cmp;
    this.targetFileSize = targetFileSize;
  }

  /**
   * Drops versions no reader can see: an older version of a key is dropped when a newer one is
   * visible to every snapshot; a tombstone is dropped when it is visible to every snapshot and
   * nothing older can lie below the output ({@code bottommost}).
   */
  static final class Dropper {
    private final KeyComparator user;
    private final long smallestSnapshot;
    private final boolean bottommost;
    private byte[] currentKey;
    /** Sequence of the previous (newer) version of the current key, or -1 if there is none. */
    private long newerSequence = -1;

    Dropper(KeyComparator user, long smallestSnapshot, boolean bottommost) {
      this.user = user;
      this.smallestSnapshot = smallestSnapshot;
      this.bottommost = bottommost;
    }

    /** Whether the entry with this internal key stays; also tells if it starts a new user key. */
    boolean keep(byte[] ikey) {
      int len = InternalKey.userKeyLength(ikey.length);
      if (currentKey == null || user.compare(ikey, 0, len, currentKey, 0, currentKey.length) != 0) {
        currentKey = java.util.Arrays.copyOf(ikey, len);
        newerSequence = -1;
      }
      long trailer = InternalKey.trailer(ikey, 0, ikey.length);
      long sequence = trailer >>> 8;
      boolean drop;
      if (newerSequence >= 0 && newerSequence <= smallestSnapshot) {
        drop = true;
      } else {
        drop = bottommost && (trailer & 0xFF) == ValueType.DELETE.code() && sequence <= smallestSnapshot;
      }
      newerSequence = sequence;
      return !drop;
    }
  }

  /**
   * Writes the entries of {@code source} (from its first) into one new file, dropping what no
   * reader can see. Returns its metadata, or null if nothing was left to write.
   */
  public FileMeta write(long fileNumber, InternalIterator source, long smallestSnapshot, boolean bottommost, RateLimiter limiter)
      throws IOException {
    source.seekToFirst();
    List<FileMeta> out = new ArrayList<>();
    List<Long> numbers = new ArrayList<>();
    long[] next = {fileNumber};
    writeOutputs(source, new Dropper(cmp.userComparator(), smallestSnapshot, bottommost), () -> next[0]++,
        Long.MAX_VALUE, 0, numbers, out, limiter, false, null);
    return out.isEmpty() ? null : out.get(0);
  }

  /** Merges a compaction's inputs into files of about the target size. */
  public List<FileMeta> compact(CompactionPick pick, long smallestSnapshot, boolean bottommost, LongSupplier newFileNumber,
      List<Long> outputs, RateLimiter limiter) throws IOException {
    List<InternalIterator> inputs = new ArrayList<>();
    if (pick.level() == 0) {
      for (FileMeta f : pick.inputs()) {
        inputs.add(reads.uncachedIterator(f));
      }
    } else {
      inputs.add(reads.levelIterator(pick.inputs(), false));
    }
    if (!pick.nextLevelInputs().isEmpty()) {
      inputs.add(reads.levelIterator(pick.nextLevelInputs(), false));
    }
    List<FileMeta> out = new ArrayList<>();
    try (MergingIterator merged = new MergingIterator(cmp, inputs)) {
      merged.seekToFirst();
      writeOutputs(merged, new Dropper(cmp.userComparator(), smallestSnapshot, bottommost), newFileNumber,
          targetFileSize, 0, outputs, out, limiter, false, null);
    }
    return out;
  }

  /**
   * Writes the entries of {@code in} (from where it stands) into new node files: capacity files
   * of {@code capacity} bytes that take later appends, cut at about {@code cutSize} bytes, between
   * user keys. Returns their metadata, none if nothing was left to write.
   */
  public List<FileMeta> writeNodes(InternalIterator in, long smallestSnapshot, boolean bottommost, LongSupplier newFileNumber,
      long cutSize, long capacity, List<Long> outputs, RateLimiter limiter, boolean fillCache, SyncListener syncs)
      throws IOException {
    List<FileMeta> out = new ArrayList<>();
    writeOutputs(in, new Dropper(cmp.userComparator(), smallestSnapshot, bottommost), newFileNumber, cutSize,
        capacity, outputs, out, limiter, fillCache, syncs);
    return out;
  }

  /**
   * Keeps the data blocks a writer reports and puts them in the block cache once their sequence
   * has committed, so a sequence expected to be read soon (an appended one) is cached from the
   * start, like RocksDB's {@code prepopulate_block_cache}. Blocks of a sequence that did not
   * commit are dropped. Only the IAM-tree fills, and only sequences its m/k rule protects, so the
   * blocks go in as protected ({@link BlockCache#fillProtected}): the first sequence appended to
   * a node is not protected until the job's edit is installed, and as a plain fill it was dropped
   * whenever protected blocks took nearly the whole cache.
   */
  private final class CacheFiller implements MSTableWriter.BlockListener {
    private final List<Long> offsets = new ArrayList<>();
    private final List<byte[]> blocks = new ArrayList<>();

    @Override
    public void dataBlock(long offset, byte[] block) {
      offsets.add(offset);
      blocks.add(block);
    }

    void committed(long fileNumber) throws IOException {
      for (int i = 0; i < offsets.size(); i++) {
        cache.fillProtected(fileNumber, offsets.get(i), blocks.get(i));
      }
      offsets.clear();
      blocks.clear();
    }
  }

  /**
   * Appends the entries of {@code in} (from where it stands; versions no reader can see dropped,
   * tombstones kept) to node file {@code f} as one new sequence, after the sequences {@code f}
   * records. Returns the file's new metadata, {@code f} itself if nothing was left to append, or
   * null if the sequence does not fit in the file's free space (the file is then unchanged and
   * {@code in} partly consumed).
   *
   * @param estimatedBytes the entries' approximate size, to refuse early a file too small
   * @param fillCache put the new sequence's blocks in the block cache once it commits; a caller
   *     whose append then fails to reach the manifest must evict the file from the cache, since
   *     the next append reuses that space
   * @param syncs told around the commit's syncs, or null
   */
  public FileMeta append(FileMeta f, InternalIterator in, long smallestSnapshot, long estimatedBytes, RateLimiter limiter,
      boolean fillCache, SyncListener syncs) throws IOException {
    Path path = StoreFiles.table(dir, f.fileNumber());
    Lock lock = reads.footerLock(f.fileNumber());
    MSTableWriter writer;
    lock.lock();
    try {
      writer = MSTableWriter.openForAppend(fs, path, f.fileNumber(), tableOptions, cmp, f.sequenceCount());
    } finally {
      lock.unlock();
    }
    try {
      if (writer.freeBytes() < estimatedBytes + estimatedBytes / 8 + (64 << 10)) {
        return null;
      }
      Dropper dropper = new Dropper(cmp.userComparator(), smallestSnapshot, false);
      CacheFiller filler = fillCache ? new CacheFiller() : null;
      writer.setBlockListener(filler);
      writer.setSyncListener(syncs);
      writer.setFooterLock(lock); // readers opening the file meanwhile wait only for the footer's write
      SequenceWriter seq = writer.beginSequence();
      long unpaced = 0;
      for (; in.valid(); in.next()) {
        byte[] k = in.key();
        if (dropper.keep(k)) {
          Slice v = in.valueSlice();
          seq.add(k, v);
          unpaced = pace(limiter, unpaced + k.length + v.length(), false);
        }
      }
      pace(limiter, unpaced, true);
      if (seq.entries() == 0) {
        seq.abandon();
        return f;
      }
      SequenceHandle h;
      try {
        h = seq.finish();
      } catch (TableFullException e) {
        return null;
      }
      if (filler != null) {
        filler.committed(f.fileNumber());
      }
      byte[] smallest = cmp.compare(h.smallest(), f.smallest()) < 0 ? h.smallest() : f.smallest();
      byte[] largest = cmp.compare(h.largest(), f.largest()) > 0 ? h.largest() : f.largest();
      return new FileMeta(f.fileNumber(), writer.usedBytes(), f.sequenceCount() + 1, f.entries() + h.entries(),
          smallest, largest, Math.min(f.smallestSequence(), h.smallestSequence()),
          Math.max(f.largestSequence(), h.largestSequence()));
    } finally {
      writer.close();
    }
  }

  /** Pays the limiter for {@code unpaced} bytes once they reach a chunk (or at the end); returns what is left unpaid. */
  private static long pace(RateLimiter limiter, long unpaced, boolean end) {
    if (limiter == null || unpaced == 0 || (!end && unpaced < RATE_CHUNK)) {
      return limiter == null ? 0 : unpaced;
    }
    limiter.acquire((int) Math.min(Integer.MAX_VALUE, unpaced));
    return 0;
  }

  private void writeOutputs(InternalIterator in, Dropper dropper, LongSupplier newFileNumber, long cutSize,
      long capacity, List<Long> numbers, List<FileMeta> out, RateLimiter limiter, boolean fillCache, SyncListener syncs)
      throws IOException {
    CacheFiller filler = fillCache ? new CacheFiller() : null;
    MSTableWriter writer = null;
    SequenceWriter seq = null;
    long unpaced = 0;
    KeyComparator user = cmp.userComparator();
    byte[] lastUserKey = null;
    try {
      for (; in.valid(); in.next()) {
        byte[] k = in.key();
        if (!dropper.keep(k)) {
          continue;
        }
        int len = InternalKey.userKeyLength(k.length);
        boolean newUserKey = lastUserKey == null || user.compare(k, 0, len, lastUserKey, 0, lastUserKey.length) != 0;
        if (seq != null && newUserKey && seq.estimatedSize() >= cutSize) {
          out.add(finish(writer, seq, filler));
          writer = null;
          seq = null;
        }
        if (seq == null) {
          long number = newFileNumber.getAsLong();
          numbers.add(number);
          writer = MSTableWriter.create(fs, StoreFiles.table(dir, number), number, capacity, tableOptions, cmp);
          writer.setBlockListener(filler);
          writer.setSyncListener(syncs);
          seq = writer.beginSequence();
        }
        Slice v = in.valueSlice();
        seq.add(k, v);
        if (newUserKey) {
          lastUserKey = java.util.Arrays.copyOf(k, len);
        }
        unpaced = pace(limiter, unpaced + k.length + v.length(), false);
      }
      if (seq != null) {
        out.add(finish(writer, seq, filler));
        writer = null;
      }
      pace(limiter, unpaced, true); // small outputs pay too, or many of them would run unlimited
      if (!out.isEmpty()) {
        syncDirectory(syncs); // the new files' names must be durable before the manifest names them
      }
    } finally {
      if (writer != null) {
        writer.close();
      }
    }
  }

  private void syncDirectory(SyncListener syncs) throws IOException {
    if (syncs == null) {
      fs.syncDirectory(dir);
      return;
    }
    syncs.beforeSync();
    try {
      fs.syncDirectory(dir);
    } finally {
      syncs.afterSync();
    }
  }

  private static FileMeta finish(MSTableWriter writer, SequenceWriter seq, CacheFiller filler) throws IOException {
    SequenceHandle h = seq.finish();
    long size = writer.usedBytes();
    writer.close();
    if (filler != null) {
      filler.committed(writer.fileNumber());
    }
    return new FileMeta(writer.fileNumber(), size, 1, h.entries(), h.smallest(), h.largest(),
        h.smallestSequence(), h.largestSequence());
  }
}
