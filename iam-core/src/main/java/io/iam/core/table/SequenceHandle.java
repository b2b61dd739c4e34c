package io.iam.core.table;

import java.util.Arrays;

/**
 * Where one committed sorted sequence lives in its MSTable file and what it holds. Immutable (the
 * key arrays are copied in and out).
 *
 * @param index position of the sequence in its file, 0 for the oldest
 * @param dataStart offset of its first data block
 * @param dataEnd offset just past its last data block
 * @param metaOffset offset of its metadata (index, filter, properties)
 * @param metaLength length of its metadata
 * @param entries number of entries
 * @param dataBytes total length of the internal keys and values added (before prefix compression
 *     and block framing; the on-disk length is {@link #dataLength()})
 * @param smallest the smallest internal key
 * @param largest the largest internal key
 * @param smallestSequence the smallest sequence number in any entry's trailer
 * @param largestSequence the largest sequence number in any entry's trailer
 */
public record SequenceHandle(
    int index,
    long dataStart,
    long dataEnd,
    long metaOffset,
    long metaLength,
    long entries,
    long dataBytes,
    byte[] smallest,
    byte[] largest,
    long smallestSequence,
    long largestSequence) {

  public SequenceHandle {
    smallest = smallest.clone();
    largest = largest.clone();
  }

  @Override
  public byte[] smallest() {
    return smallest.clone();
  }

  @Override
  public byte[] largest() {
    return largest.clone();
  }

  /** Bytes of data blocks on disk ({@code dataEnd - dataStart}). */
  public long dataLength() {
    return dataEnd - dataStart;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SequenceHandle h
        && h.index == index
        && h.dataStart == dataStart
        && h.dataEnd == dataEnd
        && h.metaOffset == metaOffset
        && h.metaLength == metaLength
        && h.entries == entries
        && h.dataBytes == dataBytes
        && Arrays.equals(h.smallest, smallest)
        && Arrays.equals(h.largest, largest)
        && h.smallestSequence == smallestSequence
        && h.largestSequence == largestSequence;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(dataStart) * 31 + index;
  }

  @Override
  public String toString() {
    return "sequence " + index + " [data " + dataStart + ".." + dataEnd + ", meta " + metaOffset + "+" + metaLength
        + ", " + entries + " entries, seq " + smallestSequence + ".." + largestSequence + "]";
  }
}
