package io.iam.core.manifest;

/**
 * A file's membership test for user keys (its Bloom filters, held in memory): false only if the
 * file holds no version of the key. The compaction buffer keeps it for every buffer file, also
 * after the file was removed, so a removed file blocks buffered reads only for the keys it may
 * have held. Must not do I/O.
 */
@FunctionalInterface
public interface KeyFilter {

  /** A filter that admits every key (for a file whose filter is unknown). */
  KeyFilter ALL = userKey -> true;

  boolean mayContain(byte[] userKey);
}
