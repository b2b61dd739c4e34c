/**
 * The MSTable (multiple-sequence table) file format of the IAM paper (ICPP 2019, section 4.1): one
 * file holds several sorted sequences. Data blocks grow forward from the start of the file, each
 * sequence's metadata (block index, Bloom filter, properties) grows backward from the end, and the
 * hole in between takes later appends without rewriting anything already committed.
 *
 * <h2>On-disk layout</h2>
 *
 * <pre>
 * offset 0                                                                        file end
 * | seq0 data blocks | seq1 data blocks | ... hole ... | meta seq1 | meta seq0 | footer |
 *                                       ^ dataEnd       ^ metaOffset (newest)  ^ size-48
 * </pre>
 *
 * <ul>
 *   <li><b>Block</b>: payload, 1-byte type (1 data, 2 index, 3 filter, 4 properties, 5 user-key
 *       index), 4-byte masked CRC32C ({@link io.iam.core.util.Checksums#mask}) of payload followed
 *       by the type byte.
 *   <li><b>Data and index block payload</b>: LevelDB-style entries {@code varint shared, varint
 *       unshared, varint valueLength, key suffix, value}, then the restart offsets (fixed32 each)
 *       and their count (fixed32). Keys are internal keys. The index block has one entry per data
 *       block: an internal key at least the block's last key and below the next block's first
 *       key, and {@code varint offset, varint payloadLength}. The writer stores
 *       the user comparator's shortest separator there with the largest trailer (LevelDB's
 *       {@code FindShortestSeparator}), and the last key only where no shorter separator exists
 *       and for the last block; files whose index holds last keys everywhere read the same way.
 *   <li><b>User-key index block</b> (type 5, format version 2): the same entries under bare user
 *       keys, each with only {@code varint payloadLength} (a block starts where the previous one
 *       ends). A sequence is indexed so when no user key has versions on both sides of a block
 *       boundary, as RocksDB's {@code index_key_is_user_key}; readers give each key the smallest
 *       trailer ({@link io.iam.core.key.InternalKey#afterAllVersions}). The writer builds both
 *       forms and drops this one at the first boundary a user key spans.
 *   <li><b>Filter block</b>: a {@link io.iam.core.table.BloomFilter} over the sequence's distinct
 *       user keys (absent when {@code bloomBitsPerKey == 0}).
 *   <li><b>Sequence metadata</b>: {@code [index block][filter block][properties block]}, contiguous.
 *       The properties hold the sequence's index in the file, data range, counts, key and sequence
 *       number ranges, the index and filter lengths, and a pointer (offset, length, properties
 *       length) to the previous (older) sequence's metadata.
 *   <li><b>Footer</b> (48 bytes, the last bytes of the file): fixed32 version (2; version 1
 *       files, which have no user-key index blocks, read the same, and an append to one writes
 *       version 2), fixed32 sequence count, fixed64 data end, fixed64 newest metadata offset, fixed64 newest metadata length,
 *       fixed32 newest properties length, fixed32 masked CRC32C of the preceding 36 bytes, fixed64
 *       magic.
 * </ul>
 *
 * <p>A <i>compact</i> file (capacity 0) holds one sequence laid out exactly like an SSTable: data,
 * metadata, footer, nothing else. A <i>capacity</i> file is created at its full length with the
 * footer at the end and a sparse hole in the middle.
 *
 * <p><b>Commit protocol.</b> An append writes its data blocks into the hole, then its metadata just
 * below the newest metadata, syncs, rewrites the footer and syncs again. The footer rewrite is the
 * commit point: until it lands, readers (and reopened writers) see only the older sequences. The
 * footer is a single 48-byte write at a fixed position; a torn footer write is detected by its
 * checksum (the file is then reported corrupt, never misread).
 */
package io.iam.core.table;
