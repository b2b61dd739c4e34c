package io.iam.bench.asterix;

import java.util.Locale;

/**
 * How {@link AsterixTarget} sends a batch of puts to AsterixDB ({@code -o ingest=}). Both are one
 * {@code UPSERT} per batch, acknowledged when AsterixDB has committed it.
 */
enum Ingest {
  /**
   * {@code UPSERT INTO ds ([{...}, ...])}: the records as SQL++ literals. Works against any cluster;
   * AsterixDB lexes every value as ADM text and compiles a statement whose cost grows faster than
   * its record count, so batches stay small.
   */
  STATEMENT,
  /**
   * {@code UPSERT INTO ds (SELECT VALUE b FROM ds_batch b)}: the batch is written as delimited text
   * to a local file that an external dataset ({@code localfs}) reads, so one small statement
   * streams the whole batch through AsterixDB's delimited-text parser. The NC must read this
   * machine's disk: the embedded instance only.
   */
  FILE;

  /** The option's value, or the default ({@link #FILE} embedded, {@link #STATEMENT} against a cluster). */
  static Ingest of(String value, boolean cluster) {
    if (value == null) {
      return cluster ? STATEMENT : FILE;
    }
    Ingest ingest;
    try {
      ingest = valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("asterixdb: -o " + AsterixTarget.INGEST + "='" + value
          + "' is not one of: file, statement");
    }
    if (ingest == FILE && cluster) {
      throw new IllegalArgumentException("asterixdb: -o " + AsterixTarget.INGEST + "=file needs the embedded"
          + " instance (the NC reads each batch from this machine's disk); a cluster (-o url=) takes statement");
    }
    return ingest;
  }
}
