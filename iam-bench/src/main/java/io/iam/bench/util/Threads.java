package io.iam.bench.util;

import java.io.IOException;
import java.util.List;

/**
 * Work run on threads of its own for the thread that started it: waiting for those threads to end,
 * and throwing a failure caught on one of them on the starting thread as it was thrown.
 */
public final class Threads {

  private Threads() {}

  /**
   * Returns once every thread has ended, however often the calling thread is interrupted meanwhile;
   * an interrupt is kept: the caller's interrupt flag is set again before this returns.
   */
  public static void joinAll(List<Thread> threads) {
    boolean interrupted = false;
    for (Thread t : threads) {
      while (true) {
        try {
          t.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Throws {@code failure} as it was thrown if it is an {@link IOException}, a runtime exception or an
   * error. Anything else (a checked exception the work did not declare) is returned, for the caller to
   * throw, as the cause of an {@link IOException} with {@code message}.
   */
  public static IOException rethrown(Throwable failure, String message) throws IOException {
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    return new IOException(message, failure);
  }
}
