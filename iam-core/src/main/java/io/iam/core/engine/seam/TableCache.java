package io.iam.core.engine.seam;

import io.iam.core.iter.MergingIterator;
import io.iam.core.iter.ForwardingIterator;
import io.iam.core.iter.ConcatenatingIterator;
import io.iam.core.cache.BlockCache;
import io.iam.core.fs.Fs;
import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.KeyComparator;
import io.iam.core.key.ValueType;
import io.iam.core.memtable.MemTable;
import io.iam.core.table.Entry;
import io.iam.core.table.MSTableReader;
import io.iam.core.table.SequenceReader;
import io.iam.core.table.TableOptions;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.StoreFiles;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import com.google.common.util.concurrent.Striped;

/**
 * The engine's one door for reading table files: open readers (cached by file number), point
 * lookups through the Bloom filters, iterators, verification, and the eviction of files that are
 * gone. {@link TableWriter} writes them. Thread-safe.
 */
public final class TableCache implements Closeable {

  /** A version found: its value (null for a deletion) and sequence number. */
  public record Found(byte[] value, long sequence) {}

  private final Fs fs;
  private final Path dir;
  private final BlockCache cache;
  private final TableOptions tableOptions;
  private final InternalKeyComparator cmp;
  private final StoreCounters stats;
  private final Map<Long, MSTableReader> readers = new ConcurrentHashMap<>();
  /**
   * Serializes, per file, what reads or rewrites its footer: opening or refreshing a reader,
   * opening an append, and an append's in-place footer write (not the syncs around it), so no
   * reader ever sees a footer half rewritten.
   */
  private final Striped<Lock> footerLocks = Striped.lock(64);

  /** Reads the table files of directory {@code dir}, written in format {@code tableOptions}. */
  public TableCache(Fs fs, Path dir, BlockCache cache, TableOptions tableOptions, InternalKeyComparator cmp,
      StoreCounters stats) {
    this.fs = fs;
    this.dir = dir;
    this.cache = cache;
    this.tableOptions = tableOptions;
    this.cmp = cmp;
    this.stats = stats;
  }

  /** The lock that serializes what reads or rewrites the footer of file {@code fileNumber}. */
  Lock footerLock(long fileNumber) {
    return footerLocks.get(fileNumber);
  }

  /**
   * The reader of a live file, opened on first use with its committed sequences, and refreshed
   * (sharing the open file) once the file has been appended to. A reader may expose more
   * sequences than an older version's {@code f} records; callers read only {@code
   * f.sequenceCount()} of them.
   */
  public MSTableReader reader(FileMeta f) throws IOException {
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
  public Found get(FileMeta f, byte[] seekKey, byte[] userKey) throws IOException {
    return get(f, seekKey, userKey, false);
  }

  /**
   * {@link #get} for a file whose Bloom filters the caller has just found to admit the key (tree=lsbm's
   * walk over sources): a file of one sequence is searched without checking its filter again.
   */
  public Found getAdmitted(FileMeta f, byte[] seekKey, byte[] userKey) throws IOException {
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
  public boolean mayContain(FileMeta f, byte[] userKey) throws IOException {
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
  public io.iam.core.manifest.KeyFilter filter(FileMeta f) throws IOException {
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
  public long blockCount(FileMeta f) throws IOException {
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
  public InternalIterator iterator(FileMeta f) throws IOException {
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
  public InternalIterator uncachedIterator(FileMeta f) throws IOException {
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
  public InternalIterator levelIterator(List<FileMeta> files) {
    return levelIterator(files, true);
  }

  /** {@link #levelIterator(List)}, reading through the block cache or, if not {@code fillCache}, around it. */
  public InternalIterator levelIterator(List<FileMeta> files, boolean fillCache) {
    return levelIterator(files, f -> fillCache ? iterator(f) : uncachedIterator(f));
  }

  /** Opens the iterator of one file of a level. */
  @FunctionalInterface
  public interface Opener {
    InternalIterator open(FileMeta f) throws IOException;
  }

  /** An iterator over the disjoint, sorted files of one level, each opened by {@code opener} when reached. */
  public InternalIterator levelIterator(List<FileMeta> files, Opener opener) {
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
  public InternalIterator merged(List<InternalIterator> children) {
    return new MergingIterator(cmp, children);
  }

  /** An iterator over a memtable's internal entries. */
  public static InternalIterator iterator(MemTable table) {
    return table.iterator();
  }

  /**
   * Reads a whole file: every block is checksummed on the way; keys must be in order and within
   * the recorded range. Returns the number of entries.
   */
  public long verify(FileMeta f) throws IOException {
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
  public void evict(long fileNumber) {
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
  public void discard(long fileNumber) {
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
