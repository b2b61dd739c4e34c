package io.iam.bench.load;

import java.io.IOException;

/** A store's background flushes and compactions did not finish within the settle timeout. */
public final class SettleTimeoutException extends IOException {

  private static final long serialVersionUID = 1L;

  public SettleTimeoutException(String message) {
    super(message);
  }
}
