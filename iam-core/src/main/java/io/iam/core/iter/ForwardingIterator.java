package io.iam.core.iter;

import java.io.IOException;

/** An internal iterator that passes every call to another; subclasses override what they add. */
public abstract class ForwardingIterator implements InternalIterator {

  protected final InternalIterator delegate;

  protected ForwardingIterator(InternalIterator delegate) {
    this.delegate = delegate;
  }

  @Override
  public boolean valid() {
    return delegate.valid();
  }

  @Override
  public void seekToFirst() throws IOException {
    delegate.seekToFirst();
  }

  @Override
  public void seek(byte[] internalKey) throws IOException {
    delegate.seek(internalKey);
  }

  @Override
  public void next() throws IOException {
    delegate.next();
  }

  @Override
  public byte[] key() {
    return delegate.key();
  }

  @Override
  public byte[] value() {
    return delegate.value();
  }

  @Override
  public Slice valueSlice() {
    return delegate.valueSlice();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
