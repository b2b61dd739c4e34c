package io.iam.core.table;

import io.iam.core.cache.BlockCache;
import io.iam.core.fs.FsFile;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Reads one committed sequence of an MSTable: its Bloom filter and block index are in memory, its
 * data blocks come through the block cache. Immutable and thread-safe.
 */
public final class SequenceReader {

  private final FsFile file;
  private final Path path;
  private final long fileNumber;
  private final BlockCache cache;
  /**
   * Whether blocks read go into {@link #cache}; if not, the cache is only looked into ({@link
   * BlockCache#peek}) and an iterator reads the other blocks ahead from the file.
   */
  private final boolean fill;
  private final InternalKeyComparator cmp;
  private final SequenceHandle handle;
  private final byte[][] lastKeys;
  private final long[] blockOffsets;
  private final int[] blockLengths;
  private final BloomFilter filter;
  private final long filterOffset;

  SequenceReader(FsFile file, Path path, long fileNumber, BlockCache cache, boolean fill, InternalKeyComparator cmp,
      TableMetadata.Sequence meta) {
    this.file = file;
    this.path = path;
    this.fileNumber = fileNumber;
    this.cache = cache;
    this.fill = fill;
    this.cmp = cmp;
    this.handle = meta.props().handle();
    this.lastKeys = meta.lastKeys();
    this.blockOffsets = meta.blockOffsets();
    this.blockLengths = meta.blockLengths();
    this.filter = meta.filter();
    this.filterOffset = meta.filter() == null ? -1
        : handle.metaOffset() + meta.props().indexLength() + TableFormat.TRAILER_SIZE;
  }

  public SequenceHandle handle() {
    return handle;
  }

  /** Number of data blocks. */
  public int blockCount() {
    return blockOffsets.length;
  }

  /** Whether the sequence has a Bloom filter. */
  public boolean hasFilter() {
    return filter != null;
  }

  /**
   * False only if no entry of this sequence has user key {@code userKey} (by its Bloom filter);
   * always true when the sequence has no filter.
   */
  public boolean mayContain(byte[] userKey) {
    return filter == null || filter.mayContain(userKey);
  }

  /**
   * The first entry whose internal key is at least {@code internalKey}, or null if there is none in
   * this sequence. Does not consult the Bloom filter. To read user key {@code u} at snapshot {@code
   * s}, seek to {@link InternalKey#seekKey(byte[], long)} and check the user key of the result.
   *
   * @throws TableCorruptionException if a block read fails verification
   */
  public Entry seek(byte[] internalKey) throws IOException {
    TableIterator it = iterator();
    it.seek(internalKey);
    return it.valid() ? new Entry(it.key(), it.value()) : null;
  }

  /** A new, unpositioned iterator over the sequence in key order. */
  public TableIterator iterator() {
    return new TableIterator(this, cmp);
  }

  /**
   * Index of the first block whose index key is at least {@code key}; {@link #blockCount()} if
   * none. A block's index key is at least its last key and below the next block's first key (its
   * last key, or a shorter separator), so no block before the result holds a key at least {@code
   * key}; the result may hold none either (a key between a block's last key and its separator),
   * and iterators then go on to the next block.
   */
  int findBlock(byte[] key) {
    InternalKey.userKeyLength(key.length);
    int lo = 0;
    int hi = lastKeys.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cmp.compare(lastKeys[mid], key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * The most bytes of consecutive data blocks one read takes when a sequence without a block cache
   * is iterated (a compaction's input, read from start to end): one system call per window instead
   * of one per block.
   */
  static final int READAHEAD_BYTES = 256 << 10;

  /**
   * The first window of an iterator, and of every read that does not continue the previous window
   * (a seek). Each window that does continue it is twice as large, up to {@link #READAHEAD_BYTES},
   * as RocksDB's iterators ramp up their readahead: a node job's children each read a short range
   * of the parent's sequences, and a full window for each would read, and allocate, far more than
   * they use.
   */
  static final int READAHEAD_INITIAL_BYTES = 16 << 10;

  /**
   * Consecutive data blocks read together for one iterator of an uncached sequence ({@link
   * #READAHEAD_INITIAL_BYTES} growing to {@link #READAHEAD_BYTES}); each block is still verified
   * when it is served. Owned by one iterator.
   */
  static final class Readahead {
    private byte[] window = new byte[0];
    private int first = -1;
    private int last = -1;
    /** The block a read continuing the current window starts at. */
    private int followOn = -1;
    private int limit = READAHEAD_INITIAL_BYTES;
  }

  /**
   * Block {@code i}: unless blocks are read through the block cache, from {@code ra}'s window
   * (filled with the blocks from {@code i} on that fit in its current size, up to the first one
   * resident in the cache), or from the cache if it is resident there and not in the window;
   * otherwise as {@link #block(int)}.
   */
  Block block(int i, Readahead ra) throws IOException {
    if (cached() || ra == null) {
      return block(i);
    }
    if (i < ra.first || i > ra.last) {
      byte[] resident = cache == null ? null : cache.peek(fileNumber, blockOffsets[i]);
      if (resident != null) {
        return parse(resident, i);
      }
      ra.limit = i == ra.followOn ? Math.min(READAHEAD_BYTES, 2 * ra.limit) : READAHEAD_INITIAL_BYTES;
      int last = i;
      long end = blockOffsets[i] + blockLengths[i] + TableFormat.TRAILER_SIZE;
      while (last + 1 < blockOffsets.length && blockOffsets[last + 1] == end
          && blockOffsets[last + 1] + blockLengths[last + 1] + TableFormat.TRAILER_SIZE - blockOffsets[i] <= ra.limit
          && (cache == null || cache.peek(fileNumber, blockOffsets[last + 1]) == null)) { // a resident block ends it
        last++;
        end = blockOffsets[last] + blockLengths[last] + TableFormat.TRAILER_SIZE;
      }
      int length = Math.toIntExact(end - blockOffsets[i]);
      if (ra.window.length < length) {
        ra.window = new byte[Math.max(length, Math.min(READAHEAD_BYTES, 2 * length))];
      }
      ra.first = -1; // a failed read leaves no window behind
      try {
        file.readFully(blockOffsets[i], ByteBuffer.wrap(ra.window, 0, length));
      } catch (EOFException e) {
        throw new TableCorruptionException(path, blockOffsets[i], "data block is truncated", e);
      }
      ra.first = i;
      ra.last = last;
      ra.followOn = last + 1;
    }
    int at = Math.toIntExact(blockOffsets[i] - blockOffsets[ra.first]);
    int len = blockLengths[i];
    TableFormat.verify(ra.window, at, len, TableFormat.TYPE_DATA, path, blockOffsets[i]);
    return Block.parse(ra.window, at, len, path, blockOffsets[i]); // read once, by this iterator only
  }

  /** Whether blocks are read through the block cache, filling it (else an iterator reads ahead). */
  boolean cached() {
    return cache != null && fill;
  }

  /** Block {@code i}: from the cache or read and verified (and cached, if this reader fills the cache). */
  Block block(int i) throws IOException {
    long off = blockOffsets[i];
    int len = blockLengths[i];
    BlockCache.Loader loader = () -> TableFormat.readBlock(file, path, off, len, TableFormat.TYPE_DATA);
    byte[] data;
    if (cache == null) {
      data = loader.load();
    } else if (fill) {
      data = cache.get(fileNumber, off, loader);
    } else {
      data = cache.peek(fileNumber, off);
      if (data == null) {
        data = loader.load();
      }
    }
    return parse(data, i);
  }

  /** Parses block {@code i} from {@code data}, its payload and trailer as cached (verified when it was read). */
  private Block parse(byte[] data, int i) throws IOException {
    long off = blockOffsets[i];
    int len = blockLengths[i];
    if (data.length != len + TableFormat.TRAILER_SIZE) {
      throw new TableCorruptionException(path, off, "cached block has length " + data.length + ", expected "
          + (len + TableFormat.TRAILER_SIZE));
    }
    return Block.parse(data, len, path, off);
  }

  /**
   * Decodes data block {@code i} as a scan reads it (from the block cache, or read from the file and
   * verified) and walks every entry; returns the number of entries. Public for the block-decode
   * microbenchmark ({@code BlockDecodeBenchmark}), which cannot reach the package-private block.
   *
   * @throws TableCorruptionException if the block fails verification or an entry is malformed
   */
  public int scanBlock(int i) throws IOException {
    Block.Iter it = block(i).iterator(cmp);
    int entries = 0;
    for (it.seekToFirst(); it.valid(); it.next()) {
      entries++;
    }
    return entries;
  }

  /**
   * Whether a seek to {@code internalKey} (null: the first key) must read a block that is not in
   * the block cache: false when that block is cached, and false when the seek lands past the last
   * block (every key of the sequence is smaller, which the in-memory index tells without I/O);
   * true for every landing block without a cache.
   */
  public boolean seekReadsUncachedBlock(byte[] internalKey) {
    int i = internalKey == null ? 0 : findBlock(internalKey);
    return i < blockOffsets.length && (cache == null || !cache.contains(fileNumber, blockOffsets[i]));
  }

  /** Index key of block {@code i} (for tests and diagnostics). */
  byte[] indexKey(int i) {
    return lastKeys[i];
  }

  /** Offset of block {@code i} (for tests and diagnostics). */
  long blockOffset(int i) {
    return blockOffsets[i];
  }

  /** Offset of the filter block, or -1 (for tests and diagnostics). */
  long filterOffset() {
    return filterOffset;
  }

  @Override
  public String toString() {
    return path + " " + handle;
  }
}
