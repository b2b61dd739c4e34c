package io.iam.core.engine;

import com.google.common.util.concurrent.RateLimiter;
import io.iam.core.cache.BlockCache;
import io.iam.core.fs.Fs;
import io.iam.core.iter.InternalIterator;
import io.iam.core.iter.Slice;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.KeyComparator;
import io.iam.core.key.ValueType;
import io.iam.core.memtable.MemTable;
import io.iam.core.option.OptionValues;
import io.iam.core.table.Entry;
import io.iam.core.table.MSTableReader;
import io.iam.core.table.MSTableWriter;
import io.iam.core.table.SequenceHandle;
import io.iam.core.table.SequenceReader;
import io.iam.core.table.SequenceWriter;
import io.iam.core.table.SyncListener;
import io.iam.core.table.TableOptions;
import io.iam.core.tree.CompactionPick;
import io.iam.core.tree.FileMeta;
import io.iam.core.tree.StoreFiles;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import com.google.common.util.concurrent.Striped;
import io.iam.core.table.TableFullException;
import java.util.function.LongSupplier;

/**
 * The engine's one door to table files: open readers (cached by file number), point lookups
 * through the Bloom filters, iterators, and writing new files from sorted input, for flushes and
 * compactions alike. Thread-safe.
 */
final class TableCache implements Closeable {

  /** A version found by a lookup; {@code value} is null for a tombstone. */
  /** A version found: its value (null for a deletion) and sequence number. */
  record Found(byte[] value, long sequence) {}

  private static final long RATE_CHUNK = 64 << 10;

  private final Fs fs;
  private final Path dir;
  private final BlockCache cache;
  private final TableOptions tableOptions;
  private final InternalKeyComparator cmp;
  private final Statistics stats;
  private final long targetFileSize;
  private final Map<Long, MSTableReader> readers = new ConcurrentHashMap<>();
  /**
   * Serializes, per file, what reads or rewrites its footer: opening or refreshing a reader,
   * opening an append, and an append's in-place footer write (not the syncs around it), so no
   * reader ever sees a footer half rewritten.
   */
  private final Striped<Lock> footerLocks = Striped.lock(64);

  TableCache(Fs fs, Path dir, BlockCache cache, OptionValues options, InternalKeyComparator cmp, Statistics stats) {
    this.fs = fs;
    this.dir = dir;
    this.cache = cache;
    this.tableOptions = new TableOptions(options.get(StoreOptions.BLOCK_SIZE).intValue(),
        options.get(StoreOptions.BLOOM_BITS_PER_KEY), TableOptions.DEFAULT.restartInterval());
    this.cmp = cmp;
    this.stats = stats;
    this.targetFileSize = options.get(StoreOptions.TARGET_FILE_SIZE);
  }

  /**
   * The reader of a live file, opened on first use with its committed sequences, and refreshed
   * (sharing the open file) once the file has been appended to. A reader may expose more
   * sequences than an older version's {@code f} records; callers read only {@code
   * f.sequenceCount()} of them.
   */
  MSTableReader reader(FileMeta f) throws IOException {
    MSTableReader r = readers.get(f.fileNumber());
    if (r != null && r.sequenceCount() >= f.sequenceCount()) {
      return r;
    }
    Lock lock = footerLocks.get(f.fileNumber());
    lock.lock();
    try {
      r = readers.get(f.fileNumber());
      if (r == null) {
        r = MSTableReader.open(fs, StoreFiles.table(dir, f.fileNumber()), f.fileNumber(), cache, tableOptions, cmp,
            f.sequenceCount());
        readers.put(f.fileNumber(), r);
      } else if (r.sequenceCount() < f.sequenceCount()) {
        r = r.withSequences(f.sequenceCount(), cache, cmp);
        readers.put(f.fileNumber(), r);
      }
      return r;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The newest version of {@code userKey} at or below the sequence in {@code seekKey} in a file,
   * searching its sequences newest first and skipping those whose Bloom filter rules the key out;
   * null if the file has none.
   */
  Found get(FileMeta f, byte[] seekKey, byte[] userKey) throws IOException {
    return get(f, seekKey, userKey, false);
  }

  /**
   * {@link #get} for a file whose Bloom filters the caller has just found to admit the key (tree=lsbm's
   * walk over sources): a file of one sequence is searched without checking its filter again.
   */
  Found getAdmitted(FileMeta f, byte[] seekKey, byte[] userKey) throws IOException {
    return get(f, seekKey, userKey, f.sequenceCount() == 1);
  }

  private Found get(FileMeta f, byte[] seekKey, byte[] userKey, boolean admitted) throws IOException {
    MSTableReader r = reader(f);
    KeyComparator user = cmp.userComparator();
    for (int i = f.sequenceCount() - 1; i >= 0; i--) {
      SequenceReader s = r.sequence(i);
      if (!admitted) { // else the caller's check of this, the file's only filter, stands
        stats.bloomChecked.increment();
        if (!s.mayContain(userKey)) {
          stats.bloomUseful.increment();
          continue;
        }
      }
      Entry e = s.seek(seekKey);
      byte[] k = e == null ? null : e.key();
      if (k != null && user.compare(k, 0, InternalKey.userKeyLength(k.length), userKey, 0, userKey.length) == 0) {
        return new Found(InternalKey.type(k) == ValueType.PUT ? e.value() : null, InternalKey.sequence(k));
      }
      if (!hasUserKey(s, userKey)) {
        stats.bloomFalsePositive.increment();
      }
    }
    return null;
  }

  /** Whether some sequence's Bloom filter of a file lets {@code userKey} through (no block read). */
  boolean mayContain(FileMeta f, byte[] userKey) throws IOException {
    MSTableReader r = reader(f);
    for (int i = f.sequenceCount() - 1; i >= 0; i--) {
      if (r.sequence(i).mayContain(userKey)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The Bloom filters of a file's committed sequences as one in-memory test; it keeps working after
   * the file is closed or deleted (tree=lsbm keeps it for removed buffer files).
   */
  io.iam.core.tree.lsbm.KeyFilter filter(FileMeta f) throws IOException {
    MSTableReader r = reader(f);
    List<SequenceReader> sequences = new ArrayList<>();
    for (int i = f.sequenceCount() - 1; i >= 0; i--) {
      sequences.add(r.sequence(i));
    }
    return userKey -> {
      for (SequenceReader s : sequences) {
        if (s.mayContain(userKey)) {
          return true;
        }
      }
      return false;
    };
  }

  /** Blocks of a file over all its committed sequences (for the trim's cached fraction). */
  long blockCount(FileMeta f) throws IOException {
    MSTableReader r = reader(f);
    long n = 0;
    for (int i = 0; i < f.sequenceCount(); i++) {
      n += r.sequence(i).blockCount();
    }
    return n;
  }

  /** Whether the sequence holds any version of {@code userKey} (for false-positive counting). */
  private boolean hasUserKey(SequenceReader s, byte[] userKey) throws IOException {
    Entry e = s.seek(InternalKey.seekKey(userKey, InternalKey.MAX_SEQUENCE));
    if (e == null) {
      return false;
    }
    byte[] k = e.key();
    return cmp.userComparator().compare(k, 0, InternalKey.userKeyLength(k.length), userKey, 0, userKey.length) == 0;
  }

  /** An iterator over every committed sequence of a file, reading through the block cache. */
  InternalIterator iterator(FileMeta f) throws IOException {
    return iterator(f, reader(f));
  }

  /**
   * An iterator for a compaction: it reads the file through a private reader that leaves the block
   * cache as it was (RocksDB's fill_cache=false), so a compaction neither evicts the blocks readers
   * use nor fills the cache with blocks of files it is about to delete. Blocks resident in the
   * cache are taken from it ({@link io.iam.core.cache.BlockCache#peek}: a node job's parent keeps
   * its appended sequences there), the others read ahead from the file. Closing it closes the
   * reader.
   */
  InternalIterator uncachedIterator(FileMeta f) throws IOException {
    Path path = StoreFiles.table(dir, f.fileNumber());
    MSTableReader r = MSTableReader.openLookOnly(fs, path, f.fileNumber(), cache, tableOptions, cmp, f.sequenceCount());
    return new ForwardingIterator(iterator(f, r)) {
      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          r.close();
        }
      }
    };
  }

  private InternalIterator iterator(FileMeta f, MSTableReader r) {
    if (f.sequenceCount() == 1) {
      return r.sequence(0).iterator();
    }
    List<InternalIterator> parts = new ArrayList<>();
    for (int i = 0; i < f.sequenceCount(); i++) {
      parts.add(r.sequence(i).iterator());
    }
    return new MergingIterator(cmp, parts);
  }

  /** An iterator over the disjoint, sorted files of one level, opening each when reached. */
  InternalIterator levelIterator(List<FileMeta> files) {
    return levelIterator(files, true);
  }

  private InternalIterator levelIterator(List<FileMeta> files, boolean fillCache) {
    return levelIterator(files, f -> fillCache ? iterator(f) : uncachedIterator(f));
  }

  /** Opens the iterator of one file of a level. */
  @FunctionalInterface
  interface Opener {
    InternalIterator open(FileMeta f) throws IOException;
  }

  /** An iterator over the disjoint, sorted files of one level, each opened by {@code opener} when reached. */
  InternalIterator levelIterator(List<FileMeta> files, Opener opener) {
    List<ConcatenatingIterator.Source> sources = new ArrayList<>();
    for (FileMeta f : files) {
      sources.add(new ConcatenatingIterator.Source() {
        @Override
        public byte[] largest() {
          return f.largest();
        }

        @Override
        public InternalIterator open() throws IOException {
          return opener.open(f);
        }
      });
    }
    return new ConcatenatingIterator(cmp, sources);
  }

  /** The entries of several iterators in internal-key order (every version of every key). */
  InternalIterator merged(List<InternalIterator> children) {
    return new MergingIterator(cmp, children);
  }

  /** An iterator over a memtable's internal entries. */
  static InternalIterator iterator(MemTable table) {
    return table.iterator();
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
  FileMeta write(long fileNumber, InternalIterator source, long smallestSnapshot, boolean bottommost, RateLimiter limiter)
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
  List<FileMeta> compact(CompactionPick pick, long smallestSnapshot, boolean bottommost, LongSupplier newFileNumber,
      List<Long> outputs, RateLimiter limiter) throws IOException {
    List<InternalIterator> inputs = new ArrayList<>();
    if (pick.level() == 0) {
      for (FileMeta f : pick.inputs()) {
        inputs.add(uncachedIterator(f));
      }
    } else {
      inputs.add(levelIterator(pick.inputs(), false));
    }
    if (!pick.nextLevelInputs().isEmpty()) {
      inputs.add(levelIterator(pick.nextLevelInputs(), false));
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
  List<FileMeta> writeNodes(InternalIterator in, long smallestSnapshot, boolean bottommost, LongSupplier newFileNumber,
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
  FileMeta append(FileMeta f, InternalIterator in, long smallestSnapshot, long estimatedBytes, RateLimiter limiter,
      boolean fillCache, SyncListener syncs) throws IOException {
    Path path = StoreFiles.table(dir, f.fileNumber());
    Lock lock = footerLocks.get(f.fileNumber());
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

  /**
   * Reads a whole file: every block is checksummed on the way; keys must be in order and within
   * the recorded range. Returns the number of entries.
   */
  long verify(FileMeta f) throws IOException {
    long entries = 0;
    byte[] previous = null;
    try (InternalIterator it = iterator(f)) {
      for (it.seekToFirst(); it.valid(); it.next()) {
        byte[] k = it.key();
        if (previous != null && cmp.compare(previous, k) >= 0) {
          throw new IOException(StoreFiles.table(dir, f.fileNumber()) + ": keys out of order after entry " + entries);
        }
        if (cmp.compare(k, f.smallest()) < 0 || cmp.compare(k, f.largest()) > 0) {
          throw new IOException(StoreFiles.table(dir, f.fileNumber()) + ": key outside the file's recorded range at entry " + entries);
        }
        previous = k;
        entries++;
      }
    }
    if (entries != f.entries()) {
      throw new IOException(StoreFiles.table(dir, f.fileNumber()) + ": holds " + entries + " entries, the manifest says " + f.entries());
    }
    return entries;
  }

  /** Closes the reader of a file that is gone and drops its cached blocks. */
  void evict(long fileNumber) {
    MSTableReader r = readers.remove(fileNumber);
    if (r != null) {
      try {
        r.close();
      } catch (IOException e) {
        // the file is obsolete; nothing depends on closing it cleanly
      }
    }
    cache.evictFile(fileNumber);
  }

  /** Deletes a file a failed flush or compaction left behind. */
  void discard(long fileNumber) {
    evict(fileNumber);
    try {
      fs.delete(StoreFiles.table(dir, fileNumber));
    } catch (IOException e) {
      // it will be deleted as obsolete later
    }
  }

  @Override
  public void close() throws IOException {
    for (MSTableReader r : readers.values()) {
      r.close();
    }
    readers.clear();
  }
}
