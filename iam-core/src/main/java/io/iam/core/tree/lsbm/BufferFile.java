package io.iam.core.tree.lsbm;

import io.iam.core.key.InternalKey;
import io.iam.core.tree.FileMeta;

/**
 * One file of a compaction buffer list B_i: a file that was in C_{i-1} when it was merged into
 * C_i, kept on disk unchanged.
 *
 * @param epoch when it was appended (the buffer's counter); a {@link Fence} of a later epoch that
 *     covers a key makes this file unusable for that key
 * @param lo smallest user key of the file
 * @param hi largest user key of the file
 */
public record BufferFile(FileMeta file, long epoch, byte[] lo, byte[] hi) {

  static BufferFile of(FileMeta file, long epoch) {
    return new BufferFile(file, epoch, InternalKey.userKey(file.smallest()), InternalKey.userKey(file.largest()));
  }

  public long fileNumber() {
    return file.fileNumber();
  }

  @Override
  public String toString() {
    return "#" + file.fileNumber() + "@" + epoch;
  }
}
