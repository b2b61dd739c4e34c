package io.iam.core.key;

import java.util.Comparator;

/** Orders internal keys: user key ascending by the user comparator, then trailer descending. */
public final class InternalKeyComparator implements Comparator<byte[]> {

  private final KeyComparator user;

  public InternalKeyComparator(KeyComparator user) {
    this.user = user;
  }

  public KeyComparator userComparator() {
    return user;
  }

  @Override
  public int compare(byte[] a, byte[] b) {
    return compare(a, 0, a.length, b, 0, b.length);
  }

  public int compare(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    int c = user.compare(a, aOff, InternalKey.userKeyLength(aLen), b, bOff, InternalKey.userKeyLength(bLen));
    if (c != 0) {
      return c;
    }
    return Long.compareUnsigned(InternalKey.trailer(b, bOff, bLen), InternalKey.trailer(a, aOff, aLen));
  }
}
