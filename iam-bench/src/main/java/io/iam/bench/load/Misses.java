package io.iam.bench.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Counts the operations of a phase that did not find a loaded key: a point read that got no value,
 * a scan that found no entry at or after its loaded start key. Every key they look for was loaded,
 * and none was deleted, so any miss means the store lost data.
 */
final class Misses {

  private final String what;
  private long count;
  private byte[] first;

  /** @param what the operations, plural, for the message: "point reads" */
  Misses(String what) {
    this.what = what;
  }

  /** {@code key} was looked for and not found. */
  void miss(byte[] key) {
    if (count++ == 0) {
      first = key.clone();
    }
  }

  long count() {
    return count;
  }

  /**
   * Fails if anything was missed.
   *
   * @param tree the store, for the message
   * @param ops operations run
   * @throws MissingKeyException "leveled: 3 of 20,000 point reads found nothing for a loaded key
   *     (first: user123); the store lost data"
   */
  void check(String tree, long ops) throws MissingKeyException {
    if (count > 0) {
      throw new MissingKeyException(String.format(Locale.ROOT,
          "%s: %,d of %,d %s found nothing for a loaded key (first: %s); the store lost data", tree, count, ops,
          what, new String(first, StandardCharsets.US_ASCII)));
    }
  }

  /** A store did not find a key that was loaded into it. */
  static final class MissingKeyException extends IOException {
    private static final long serialVersionUID = 1L;

    MissingKeyException(String message) {
      super(message);
    }
  }
}
