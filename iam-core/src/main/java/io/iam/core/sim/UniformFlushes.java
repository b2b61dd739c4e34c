package io.iam.core.sim;

import io.iam.core.option.OptionType;

/** Every flush has the same length, as when a memtable always flushes at its capacity. */
public final class UniformFlushes implements FlushStream {

  private final long length;

  public UniformFlushes(long length) {
    if (length <= 0) {
      throw new IllegalArgumentException("flush length must be > 0: " + length);
    }
    this.length = length;
  }

  @Override
  public long nextLength() {
    return length;
  }

  @Override
  public String describe() {
    return "uniform " + OptionType.SIZE.format(length);
  }
}
