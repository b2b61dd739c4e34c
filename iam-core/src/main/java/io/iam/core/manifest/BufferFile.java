package io.iam.core.manifest;

import io.iam.core.key.InternalKey;
import io.iam.core.manifest.FileMeta;

/**
 * One file of a compaction buffer list B_i: an input of a merge into C_i (a file of C_{i-1} or
 * of C_i itself), kept on disk unchanged after the merge.
 *
 * @param epoch when it was appended (the buffer's counter; the trim spares files newer than its
 *     previous run)
 * @param lo smallest user key of the file
 * @param hi largest user key of the file
 * @param filter the file's Bloom filters, kept after the file is removed
 */
public record BufferFile(FileMeta file, long epoch, byte[] lo, byte[] hi, KeyFilter filter) {

  public static BufferFile of(FileMeta file, long epoch, KeyFilter filter) {
    return new BufferFile(file, epoch, InternalKey.userKey(file.smallest()), InternalKey.userKey(file.largest()), filter);
  }

  public long fileNumber() {
    return file.fileNumber();
  }

  @Override
  public String toString() {
    return "#" + file.fileNumber() + "@" + epoch;
  }
}
