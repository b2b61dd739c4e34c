package io.iam.core.table;

import io.iam.core.iter.InternalIterator;
import io.iam.core.iter.Slice;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.KeyComparator;
import io.iam.core.table.SequenceProps.MetaPointer;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes one sorted sequence into an MSTable file. Entries are added in strictly increasing
 * internal-key order; data blocks are written into the file's hole as they fill (through a small
 * write buffer), so memory use does not grow with the sequence except for the block index and 4
 * bytes per distinct user key for the Bloom filter. Nothing becomes visible before {@link
 * #finish()} returns. Single-threaded; obtained from {@link MSTableWriter#beginSequence()}.
 */
public final class SequenceWriter {

  private static final int WRITE_BUFFER = 64 << 10;

  private final MSTableWriter owner;
  private final int index;
  private final long dataStart;
  private final long freeAtStart;
  private final TableOptions opts;
  private final InternalKeyComparator cmp;
  private final BlockBuilder data;
  /** The block index under internal keys ({@link TableFormat#TYPE_INDEX}), always built. */
  private final BlockBuilder indexBlock;
  /**
   * The block index under bare user keys ({@link TableFormat#TYPE_USER_INDEX}), built while no
   * user key has versions on both sides of a block boundary; the one written when that holds to
   * the end.
   */
  private final BlockBuilder userIndexBlock;
  /** Whether some user key has versions on both sides of a block boundary. */
  private boolean userKeySpansBlocks;
  /** Scratch for a {@link #userIndexBlock} value: the varint payload length. */
  private final ByteSink lengthValue = new ByteSink(8);
  /** Payload length of the data block whose index entry waits; see {@link #pendingHandle}. */
  private int pendingLength;
  private final BloomFilter.Builder bloom;
  private final ByteSink pending = new ByteSink(WRITE_BUFFER + 8192);
  /** File offset of the first byte in {@link #pending}. */
  private long pendingStart;
  /** File offset where the next data block goes. */
  private long blockStart;
  private byte[] lastKey = new byte[64];
  private int lastKeyLength = -1;
  /**
   * Handle of the last data block written, whose index entry waits for the next key (its
   * separator) or for the end of the sequence; empty when no entry waits.
   */
  private final ByteSink pendingHandle = new ByteSink(24);
  private byte[] smallest;
  private long entries;
  private long dataBytes;
  private long minSeq = Long.MAX_VALUE;
  private long maxSeq = Long.MIN_VALUE;
  private boolean ended;

  SequenceWriter(MSTableWriter owner, int index, long dataStart, TableOptions opts, InternalKeyComparator cmp) {
    this.owner = owner;
    this.index = index;
    this.dataStart = dataStart;
    this.freeAtStart = owner.freeBytes();
    this.opts = opts;
    this.cmp = cmp;
    this.data = new BlockBuilder(opts.restartInterval(), opts.blockSize() + 1024);
    this.indexBlock = new BlockBuilder(1, 4096);
    this.userIndexBlock = new BlockBuilder(1, 4096);
    this.bloom = opts.bloomBitsPerKey() == 0 ? null : BloomFilter.builder(opts.bloomBitsPerKey());
    this.pendingStart = dataStart;
    this.blockStart = dataStart;
  }

  /**
   * Adds an entry. The arrays are not retained.
   *
   * @throws IllegalArgumentException if {@code internalKey} is shorter than the 8-byte trailer or
   *     not strictly greater than the previous key (the sequence stays usable)
   * @throws TableFullException if the data written so far no longer fits in the file's hole; the
   *     sequence is abandoned
   * @throws IOException if writing a data block fails; the sequence is abandoned and the writer
   *     failed
   * @throws IllegalStateException if the sequence was finished or abandoned
   */
  public void add(byte[] internalKey, byte[] value) throws IOException {
    Objects.requireNonNull(value, "value");
    add(internalKey, value, 0, value.length);
  }

  /**
   * Adds an entry whose value is the bytes {@code value} views (an iterator's {@link
   * InternalIterator#valueSlice()}), as {@link #add(byte[], byte[])} does; they are copied before it
   * returns.
   */
  public void add(byte[] internalKey, Slice value) throws IOException {
    add(internalKey, value.array(), value.offset(), value.length());
  }

  private void add(byte[] internalKey, byte[] value, int valueOffset, int valueLength) throws IOException {
    checkActive();
    Objects.checkFromIndexSize(valueOffset, valueLength, value.length);
    int userLength = InternalKey.userKeyLength(internalKey.length);
    if (lastKeyLength >= 0 && cmp.compare(lastKey, 0, lastKeyLength, internalKey, 0, internalKey.length) >= 0) {
      throw new IllegalArgumentException("keys out of order in " + owner.filePath() + ": entry " + entries
          + " is not greater than the previous key");
    }
    if (bloom != null && (lastKeyLength < 0 || !Arrays.equals(lastKey, 0, InternalKey.userKeyLength(lastKeyLength),
        internalKey, 0, userLength))) {
      bloom.add(internalKey, 0, userLength);
    }
    if (pendingHandle.size() > 0) {
      addIndexEntry(internalKey);
    }
    if (smallest == null) {
      smallest = internalKey.clone();
    }
    if (lastKey.length < internalKey.length) {
      lastKey = new byte[Math.max(internalKey.length, 2 * lastKey.length)];
    }
    System.arraycopy(internalKey, 0, lastKey, 0, internalKey.length);
    lastKeyLength = internalKey.length;
    long seq = InternalKey.trailer(internalKey, 0, internalKey.length) >>> 8;
    minSeq = Math.min(minSeq, seq);
    maxSeq = Math.max(maxSeq, seq);
    entries++;
    dataBytes += internalKey.length + valueLength;
    data.add(internalKey, 0, internalKey.length, value, valueOffset, valueLength);
    if (data.sizeEstimate() >= opts.blockSize()) {
      guard(this::flushBlock);
    }
  }

  /** Entries added so far. */
  public long entries() {
    return entries;
  }

  /** Bytes of data blocks so far, including the block being filled. */
  public long dataSize() {
    return blockStart - dataStart + (data.isEmpty() ? 0 : data.sizeEstimate() + TableFormat.TRAILER_SIZE);
  }

  /** An estimate of the file space the sequence would take if finished now (data and metadata). */
  public long estimatedSize() {
    long filter = bloom == null ? 0 : bloom.sizeBytes() + TableFormat.TRAILER_SIZE;
    long keyLength = Math.max(lastKeyLength, 0);
    long pendingIndexEntry = ((data.isEmpty() ? 0 : 1) + (pendingHandle.size() > 0 ? 1 : 0)) * (keyLength + 16);
    long props = 96 + 2 * keyLength + TableFormat.TRAILER_SIZE;
    return dataSize() + index().sizeEstimate() + pendingIndexEntry + TableFormat.TRAILER_SIZE + filter + props;
  }

  /**
   * Writes the last data block and the metadata, syncs, then commits the sequence by rewriting
   * the footer and syncing again. On any exception the sequence is not visible and the file reads
   * as before.
   *
   * @throws TableFullException if data and metadata do not fit in the hole (the writer stays
   *     usable)
   * @throws IOException if a write or sync fails (the writer is then failed)
   * @throws IllegalStateException if the sequence is empty (use {@link #abandon()}), finished or
   *     abandoned
   */
  public SequenceHandle finish() throws IOException {
    checkActive();
    if (entries == 0) {
      throw new IllegalStateException("cannot finish an empty sequence; abandon it instead");
    }
    SequenceHandle[] out = new SequenceHandle[1];
    guard(() -> out[0] = commit());
    ended = true;
    owner.ended(this);
    return out[0];
  }

  /** Drops the sequence; nothing of it becomes visible. Idempotent once ended. */
  public void abandon() {
    if (!ended) {
      ended = true;
      owner.ended(this);
    }
  }

  private SequenceHandle commit() throws IOException {
    if (!data.isEmpty()) {
      flushBlock();
    }
    addIndexEntry(null); // the last block: its own last key
    long dataEnd = blockStart;
    ByteSink meta = new ByteSink(index().sizeEstimate() + 1024);
    int indexLength = index().finishInto(meta, userKeySpansBlocks ? TableFormat.TYPE_INDEX : TableFormat.TYPE_USER_INDEX);
    int filterLength = 0;
    if (bloom != null) {
      byte[] filter = bloom.build().toBytes();
      TableFormat.appendBlock(meta, filter, TableFormat.TYPE_FILTER);
      filterLength = filter.length;
    }
    MetaPointer previous = index == 0 ? MetaPointer.NONE : owner.newestMetaPointer();
    byte[] largest = Arrays.copyOf(lastKey, lastKeyLength);
    SequenceHandle provisional = new SequenceHandle(index, dataStart, dataEnd, 0, 0, entries, dataBytes, smallest,
        largest, minSeq, maxSeq);
    byte[] props = new SequenceProps(provisional, indexLength, filterLength, previous).encode();
    TableFormat.appendBlock(meta, props, TableFormat.TYPE_PROPERTIES);
    long metaOffset = owner.placeMetadata(dataEnd, meta.size());
    flushPending();
    owner.write(metaOffset, meta.array(), 0, meta.size());
    SequenceHandle h = new SequenceHandle(index, dataStart, dataEnd, metaOffset, meta.size(), entries, dataBytes,
        smallest, largest, minSeq, maxSeq);
    owner.commit(h, props.length);
    return h;
  }

  private void flushBlock() throws IOException {
    long sealed = data.sizeEstimate() + (long) TableFormat.TRAILER_SIZE;
    if (blockStart + sealed > owner.holeEnd()) {
      throw new TableFullException(owner.filePath(), blockStart + sealed - dataStart, freeAtStart);
    }
    int payload = data.finishInto(pending, TableFormat.TYPE_DATA);
    MSTableWriter.BlockListener listener = owner.blockListener();
    if (listener != null) {
      int at = (int) (blockStart - pendingStart);
      listener.dataBlock(blockStart, Arrays.copyOfRange(pending.array(), at, at + payload + TableFormat.TRAILER_SIZE));
    }
    pendingHandle.reset();
    pendingHandle.putVarint(blockStart);
    pendingHandle.putVarint(payload);
    pendingLength = payload;
    blockStart += payload + TableFormat.TRAILER_SIZE;
    if (pending.size() >= WRITE_BUFFER) {
      flushPending();
    }
  }

  /** The index block this sequence will write: under user keys unless one spans a block boundary. */
  private BlockBuilder index() {
    return userKeySpansBlocks ? indexBlock : userIndexBlock;
  }

  /**
   * Adds the waiting index entry of the last data block written, whose last key is {@link
   * #lastKey}, to both index blocks; {@code next} is the first key of the following block, or null
   * after the last block.
   *
   * <p>The entry's key is the user comparator's shortest separator of the two user keys, if that
   * is shorter than the last user key and lies strictly between them; else the last key itself
   * (always for the last block). Under internal keys a separator takes the largest trailer (it
   * sorts before every version of its user key). Under user keys a reader gives every key the
   * smallest trailer ({@link InternalKey#afterAllVersions}), which is right only while the two
   * user keys differ; the first boundary where they do not drops the user-key index. Either way
   * every key of the block is at most the index key and every later key is above it, which is all
   * {@link SequenceReader#findBlock} needs.
   */
  private void addIndexEntry(byte[] next) {
    int lastUserLength = InternalKey.userKeyLength(lastKeyLength);
    byte[] internal = null;
    byte[] user = Arrays.copyOf(lastKey, lastUserLength);
    if (next != null) {
      KeyComparator uc = cmp.userComparator();
      byte[] b = InternalKey.userKey(next);
      if (uc.compare(user, b) < 0) {
        byte[] s = uc.separator(user, b);
        if (s.length < user.length && uc.compare(user, s) < 0 && uc.compare(s, b) < 0) {
          user = s;
          internal = InternalKey.seekKey(s, InternalKey.MAX_SEQUENCE);
        }
      } else {
        userKeySpansBlocks = true;
        userIndexBlock.reset();
      }
    }
    if (internal == null) {
      internal = Arrays.copyOf(lastKey, lastKeyLength);
    }
    indexBlock.add(internal, 0, internal.length, pendingHandle.array(), 0, pendingHandle.size());
    if (!userKeySpansBlocks) {
      lengthValue.reset();
      lengthValue.putVarint(pendingLength);
      userIndexBlock.add(user, 0, user.length, lengthValue.array(), 0, lengthValue.size());
    }
    pendingHandle.reset();
  }

  private void flushPending() throws IOException {
    if (pending.size() > 0) {
      owner.write(pendingStart, pending.array(), 0, pending.size());
      pendingStart += pending.size();
      pending.reset();
    }
  }

  private interface IoStep {
    void run() throws IOException;
  }

  /** Runs a step; a full table abandons the sequence, any other failure also fails the writer. */
  private void guard(IoStep step) throws IOException {
    try {
      step.run();
    } catch (TableFullException e) {
      abandon();
      throw e;
    } catch (IOException | RuntimeException | Error e) {
      owner.fail();
      abandon();
      throw e;
    }
  }

  private void checkActive() {
    owner.checkOpen();
    if (ended) {
      throw new IllegalStateException("sequence " + index + " of " + owner.filePath() + " was already finished or abandoned");
    }
  }
}
