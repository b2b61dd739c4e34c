package io.iam.core.iter;

import io.iam.core.key.InternalKey;
import io.iam.core.key.KeyComparator;
import java.io.IOException;

/**
 * A view of another iterator limited to the user keys {@code [lower, upper)} (null: unbounded).
 * {@link #seekToFirst()} seeks the source to {@code lower}. Closing the view leaves the source
 * open: it belongs to the caller, who may cut it into several views one after another.
 */
public final class BoundedIterator extends ForwardingIterator {

  private final byte[] lower;
  private final byte[] upper;
  private final KeyComparator user;

  public BoundedIterator(InternalIterator source, byte[] lower, byte[] upper, KeyComparator user) {
    super(source);
    this.lower = lower;
    this.upper = upper;
    this.user = user;
  }

  @Override
  public boolean valid() {
    if (!delegate.valid()) {
      return false;
    }
    if (upper == null) {
      return true;
    }
    byte[] k = delegate.key();
    return user.compare(k, 0, InternalKey.userKeyLength(k.length), upper, 0, upper.length) < 0;
  }

  @Override
  public void seekToFirst() throws IOException {
    if (lower == null) {
      delegate.seekToFirst();
    } else {
      delegate.seek(InternalKey.seekKey(lower, InternalKey.MAX_SEQUENCE));
    }
  }

  @Override
  public void seek(byte[] internalKey) throws IOException {
    if (lower != null && user.compare(internalKey, 0, InternalKey.userKeyLength(internalKey.length), lower, 0, lower.length) < 0) {
      seekToFirst();
    } else {
      delegate.seek(internalKey);
    }
  }

  @Override
  public void close() {
    // the source belongs to the caller
  }
}
