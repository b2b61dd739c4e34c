package io.iam.core.table;

import io.iam.core.util.Checksums;
import io.iam.core.util.Coding;
import java.nio.file.Path;

/**
 * The fixed-size record at the very end of an MSTable file; rewriting it commits an append.
 *
 * @param sequenceCount committed sequences
 * @param dataEnd end of the newest sequence's data (the start of the hole)
 * @param metaOffset start of the newest sequence's metadata (the end of the hole); the footer's own
 *     offset when the file holds no sequence
 * @param metaLength length of the newest sequence's metadata
 * @param propsLength payload length of the newest sequence's properties block (the last block of
 *     its metadata)
 */
record Footer(int version, int sequenceCount, long dataEnd, long metaOffset, long metaLength, int propsLength) {

  static final int SIZE = 48;
  private static final int CHECKED = 36;

  /** The footer of a file without sequences whose footer sits at {@code footerOffset}. */
  static Footer empty(long footerOffset) {
    return new Footer(TableFormat.VERSION, 0, 0, footerOffset, 0, 0);
  }

  byte[] encode() {
    byte[] b = new byte[SIZE];
    Coding.putFixed32(b, 0, version);
    Coding.putFixed32(b, 4, sequenceCount);
    Coding.putFixed64(b, 8, dataEnd);
    Coding.putFixed64(b, 16, metaOffset);
    Coding.putFixed64(b, 24, metaLength);
    Coding.putFixed32(b, 32, propsLength);
    Coding.putFixed32(b, CHECKED, Checksums.mask(Checksums.crc32c(b, 0, CHECKED)));
    Coding.putFixed64(b, 40, TableFormat.MAGIC);
    return b;
  }

  /**
   * Decodes and checks the footer read from {@code footerOffset}.
   *
   * @throws TableCorruptionException on a bad magic number, checksum or version, or fields that do
   *     not fit the file
   */
  static Footer decode(byte[] b, Path file, long footerOffset) throws TableCorruptionException {
    if (Coding.getFixed64(b, 40) != TableFormat.MAGIC) {
      throw new TableCorruptionException(file, footerOffset, "bad magic number in footer (not an MSTable file?)");
    }
    if (Coding.getFixed32(b, CHECKED) != Checksums.mask(Checksums.crc32c(b, 0, CHECKED))) {
      throw new TableCorruptionException(file, footerOffset, "footer checksum mismatch");
    }
    int version = Coding.getFixed32(b, 0);
    if (version < TableFormat.OLDEST_READABLE_VERSION || version > TableFormat.VERSION) {
      throw new TableCorruptionException(file, footerOffset, "unknown MSTable format version " + version
          + " (this build reads versions " + TableFormat.OLDEST_READABLE_VERSION + " to " + TableFormat.VERSION + ")");
    }
    Footer f = new Footer(version, Coding.getFixed32(b, 4), Coding.getFixed64(b, 8), Coding.getFixed64(b, 16),
        Coding.getFixed64(b, 24), Coding.getFixed32(b, 32));
    if (!f.fits(footerOffset)) {
      throw new TableCorruptionException(file, footerOffset, "inconsistent footer " + f);
    }
    return f;
  }

  private boolean fits(long footerOffset) {
    if (sequenceCount < 0 || dataEnd < 0 || metaOffset < dataEnd || metaLength < 0 || propsLength < 0
        || metaLength > footerOffset - metaOffset) {
      return false;
    }
    if (sequenceCount == 0) {
      return dataEnd == 0 && metaLength == 0 && propsLength == 0;
    }
    return (long) propsLength + TableFormat.TRAILER_SIZE <= metaLength;
  }
}
