package io.iam.core.table;

import io.iam.core.iter.InternalIterator;
import io.iam.core.iter.Slice;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import java.io.IOException;
import java.util.NoSuchElementException;

/**
 * A cursor over one sequence in internal-key order. Starts unpositioned; position it with {@link
 * #seekToFirst()} or {@link #seek(byte[])}. Moves may read data blocks and so throw {@link
 * IOException} ({@link TableCorruptionException} for a damaged block); after a failed move the
 * iterator is invalid. Not thread-safe.
 */
public final class TableIterator implements InternalIterator {

  private final SequenceReader seq;
  private final InternalKeyComparator cmp;
  private int blockIndex = -1;
  private Block.Iter it;
  private byte[] key;
  private byte[] value;
  /** Blocks read ahead, when the sequence has no block cache (a compaction reading it once). */
  private final SequenceReader.Readahead readahead;

  TableIterator(SequenceReader seq, InternalKeyComparator cmp) {
    this.seq = seq;
    this.cmp = cmp;
    this.readahead = seq.cached() ? null : new SequenceReader.Readahead();
  }

  @Override
  public boolean valid() {
    return it != null && it.valid();
  }

  /** Moves to the first entry. */
  @Override
  public void seekToFirst() throws IOException {
    position(0, null);
  }

  /** Moves to the first entry whose internal key is at least {@code internalKey}. */
  @Override
  public void seek(byte[] internalKey) throws IOException {
    InternalKey.userKeyLength(internalKey.length);
    position(seq.findBlock(internalKey), internalKey);
  }

  /** Moves to the next entry; the iterator must be valid. */
  @Override
  public void next() throws IOException {
    requireValid();
    key = null;
    value = null;
    try {
      it.next();
      skipExhaustedBlocks();
    } catch (IOException | RuntimeException e) {
      it = null;
      throw e;
    }
  }

  /** The current internal key (the same array until the next move; do not modify it). */
  @Override
  public byte[] key() {
    requireValid();
    if (key == null) {
      key = it.key();
    }
    return key;
  }

  /** The current value (the same array until the next move; do not modify it). */
  @Override
  public byte[] value() {
    requireValid();
    if (value == null) {
      value = it.value();
    }
    return value;
  }

  /** The current value in the block being read, without a copy (until the next move). */
  @Override
  public Slice valueSlice() {
    requireValid();
    return value != null ? Slice.of(value) : new Slice(it.data(), it.valueOffset(), it.valueLength());
  }

  private void position(int block, byte[] target) throws IOException {
    key = null;
    value = null;
    it = null;
    blockIndex = block;
    if (block >= seq.blockCount()) {
      return;
    }
    try {
      it = seq.block(block, readahead).iterator(cmp);
      if (target == null) {
        it.seekToFirst();
      } else {
        it.seek(target);
      }
      skipExhaustedBlocks();
    } catch (IOException | RuntimeException e) {
      it = null;
      throw e;
    }
  }

  private void skipExhaustedBlocks() throws IOException {
    while (!it.valid()) {
      if (blockIndex + 1 >= seq.blockCount()) {
        it = null;
        blockIndex = seq.blockCount();
        return;
      }
      blockIndex++;
      it = seq.block(blockIndex, readahead).iterator(cmp);
      it.seekToFirst();
    }
  }

  private void requireValid() {
    if (!valid()) {
      throw new NoSuchElementException("iterator is not positioned on an entry");
    }
  }
}
