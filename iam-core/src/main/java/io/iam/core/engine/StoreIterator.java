package io.iam.core.engine;

import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.KeyComparator;
import io.iam.core.key.ValueType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * A forward range iterator over user keys as of one sequence number: each live key once, with
 * its newest visible value; deleted keys are skipped. It pins the files it reads until closed.
 * Not thread-safe. I/O errors surface as {@link UncheckedIOException}.
 */
public final class StoreIterator implements AutoCloseable {

  private final InternalIterator in;
  private final KeyComparator user;
  private final long sequence;
  private final byte[] upperBound;
  private final Runnable onClose;
  private final java.util.function.Consumer<byte[]> onSeek;
  private byte[] key;
  private byte[] value;
  private boolean closed;

  /** @param onSeek told the target of every seek (null for seekToFirst), for statistics */
  StoreIterator(InternalIterator in, KeyComparator user, long sequence, byte[] upperBound, Runnable onClose,
      java.util.function.Consumer<byte[]> onSeek) {
    this.onSeek = onSeek;
    this.in = in;
    this.user = user;
    this.sequence = sequence;
    this.upperBound = upperBound == null ? null : upperBound.clone();
    this.onClose = onClose;
  }

  /** Positions at the first key. */
  public void seekToFirst() {
    try {
      onSeek.accept(null);
      in.seekToFirst();
      settle(null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Positions at the first key ≥ {@code target}. */
  public void seek(byte[] target) {
    try {
      onSeek.accept(target);
      in.seek(InternalKey.seekKey(target, sequence));
      settle(null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public boolean valid() {
    return key != null;
  }

  /** Moves to the next key. */
  public void next() {
    if (key == null) {
      throw new IllegalStateException("iterator is not positioned");
    }
    try {
      settle(key);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public byte[] key() {
    if (key == null) {
      throw new IllegalStateException("iterator is not positioned");
    }
    return key.clone();
  }

  public byte[] value() {
    if (key == null) {
      throw new IllegalStateException("iterator is not positioned");
    }
    return value.clone();
  }

  /**
   * Advances the inner iterator to the newest visible version of the next live user key after
   * {@code skip} (null: from where it stands).
   */
  private void settle(byte[] skip) throws IOException {
    key = null;
    value = null;
    byte[] done = skip;
    while (in.valid()) {
      byte[] ikey = in.key();
      int userLen = InternalKey.userKeyLength(ikey.length);
      if (upperBound != null && user.compare(ikey, 0, userLen, upperBound, 0, upperBound.length) >= 0) {
        return;
      }
      if (done != null && user.compare(ikey, 0, userLen, done, 0, done.length) == 0) {
        in.next(); // an older version of a key already returned or deleted
        continue;
      }
      long trailer = InternalKey.trailer(ikey, 0, ikey.length);
      if ((trailer >>> 8) > sequence) {
        in.next(); // newer than this view
        continue;
      }
      byte[] userKey = Arrays.copyOf(ikey, userLen);
      if (ValueType.of((int) (trailer & 0xFF)) == ValueType.DELETE) {
        done = userKey;
        in.next();
        continue;
      }
      key = userKey;
      value = in.value();
      return;
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      try {
        in.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        onClose.run();
      }
    }
  }
}
