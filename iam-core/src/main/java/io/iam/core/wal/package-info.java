/**
 * The record log shared by the write-ahead log and the manifest.
 *
 * <p><b>Format</b> (LevelDB's log format). The file is a sequence of 32 KiB (32,768-byte) blocks;
 * the last one may be partial. A record is split into fragments that never cross a block
 * boundary. Each fragment is a 7-byte header followed by its payload:
 *
 * <pre>
 *   +----------------------+---------------+----------+-----------------+
 *   | masked CRC32C (4 LE) | length (2 LE) | type (1) | payload[length] |
 *   +----------------------+---------------+----------+-----------------+
 * </pre>
 *
 * The CRC ({@link io.iam.core.util.Checksums#mask masked}) covers the type byte and the payload.
 * Types are FULL (1), FIRST (2), MIDDLE (3) and LAST (4); 0 is reserved, so zero-filled or
 * preallocated space never parses as a fragment. A block's last 1 to 6 bytes, too few for a
 * header, are zeros, and the next fragment starts the next block. Every block therefore starts
 * with a real fragment header, which is where a reader resynchronizes after damage.
 *
 * <p>{@link io.iam.core.wal.LogWriter} hands each record to the OS in a single positional write.
 * {@link io.iam.core.wal.LogReader} tells a torn tail (a crash in the middle of a write: nothing
 * valid follows) from corruption (valid records follow the damage) and acts on it according to
 * its {@link io.iam.core.wal.RecoveryMode}.
 */
package io.iam.core.wal;
