package io.iam.core.wal;

/**
 * What a {@link LogReader} does with bytes that do not form valid records.
 *
 * <p>Damage is a <em>torn tail</em> when no valid record follows it (only zeros, garbage,
 * orphaned pieces of the torn record, or nothing): that is what a crash in the middle of a write
 * leaves. Damage followed by at least one complete, checksum-verified record is
 * <em>corruption</em>. Zero-filled space starting exactly where a record could start and running
 * to the end of the file is a clean end in every mode (preallocation).
 */
public enum RecoveryMode {
  /**
   * Default: a torn or incomplete record at the very end (a crash mid-write) ends the log quietly
   * and is reported; corruption followed by valid records is an error.
   */
  TOLERATE_CORRUPTED_TAIL,
  /** Any bad byte is an error, a torn tail and a non-zero block trailer included. */
  ABSOLUTE_CONSISTENCY,
  /**
   * Salvage: skip every bad region, keep every record that verifies, report what was dropped. After
   * a damaged fragment the reader resumes at the next block, so the records whose fragments lie in
   * the rest of the damaged block are dropped too.
   */
  SKIP_CORRUPTED_RECORDS
}
