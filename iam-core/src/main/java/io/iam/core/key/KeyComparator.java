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
}
