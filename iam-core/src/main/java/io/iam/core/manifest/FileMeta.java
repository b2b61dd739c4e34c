package io.iam.core.manifest;

import java.util.Arrays;

/**
 * What the manifest knows of one table file: its number, size, the key and sequence ranges of
 * the data it holds, and how many of its sorted sequences are committed (an MSTable can hold
 * several; a sequence appended but not yet recorded here is ignored on recovery). Immutable.
 *
 * @param smallest the smallest internal key in the file
 * @param largest the largest internal key in the file
 */
public record FileMeta(
    long fileNumber,
    long fileSize,
    int sequenceCount,
    long entries,
    byte[] smallest,
    byte[] largest,
    long smallestSequence,
    long largestSequence) {

  public FileMeta {
    if (fileNumber < 1 || fileSize < 0 || sequenceCount < 1 || entries < 0) {
      throw new IllegalArgumentException("bad file metadata for file " + fileNumber);
    }
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

  /** The smallest internal key without copying; callers must not modify it. */
  public byte[] smallestRef() {
    return smallest;
  }

  /** The largest internal key without copying; callers must not modify it. */
  public byte[] largestRef() {
    return largest;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FileMeta f
        && f.fileNumber == fileNumber
        && f.fileSize == fileSize
        && f.sequenceCount == sequenceCount
        && f.entries == entries
        && Arrays.equals(f.smallest, smallest)
        && Arrays.equals(f.largest, largest)
        && f.smallestSequence == smallestSequence
        && f.largestSequence == largestSequence;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(fileNumber);
  }

  @Override
  public String toString() {
    return "#" + fileNumber + "(" + fileSize + "B, " + entries + " entries, seq " + smallestSequence + ".." + largestSequence + ")";
  }
}
