package io.iam.core.key;

/**
 * Orders user keys. The store's comparator is fixed when it is created and recorded by {@link
 * #name()}; reopening with a comparator of another name is refused. Implementations must be
 * stateless and thread-safe.
 */
public interface KeyComparator {

  /** Compares {@code a[aOff, aOff+aLen)} with {@code b[bOff, bOff+bLen)}. */
  int compare(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen);

  default int compare(byte[] a, byte[] b) {
    return compare(a, 0, a.length, b, 0, b.length);
  }

  /** A stable name, stored in the manifest. */
  String name();

  /**
   * A key k with {@code a <= k < b}, as short as the order allows, given {@code a < b}: what a
   * table's block index stores between two blocks (LevelDB's {@code FindShortestSeparator}). The
   * default returns {@code a}, which is always correct; callers check the result and fall back to
   * {@code a} if it breaks the contract.
   */
  default byte[] separator(byte[] a, byte[] b) {
    return a;
  }
}
