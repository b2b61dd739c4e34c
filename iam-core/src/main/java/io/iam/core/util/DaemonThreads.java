package io.iam.core.util;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one place IAM makes threads: every pool of the engine, its trees, the host adapters and the
 * benchmark runners takes its threads from {@link #named}. They are daemon threads (an open store
 * never keeps a JVM alive; {@code close()} stops them), named after their job so that a thread
 * dump says what each does.
 */
public final class DaemonThreads {

  private DaemonThreads() {}

  /**
   * A factory of daemon threads named {@code prefix} followed by 1, 2, 3, … ({@code iam-flush-db-}
   * gives {@code iam-flush-db-1}).
   */
  public static ThreadFactory named(String prefix) {
    return new ThreadFactoryBuilder().setNameFormat(prefix.replace("%", "%%") + "%d").setDaemon(true).build();
  }

  /**
   * Runs {@code task} on a new daemon thread named {@code prefix}1 and waits for it at most {@code
   * timeout}: the bounded wait for a blocking call that has no timeout of its own.
   *
   * @throws TimeoutException if it has not returned in time (it is then interrupted, and left to end)
   * @throws ExecutionException what it threw
   * @throws InterruptedException if the caller was interrupted (the task is interrupted too)
   */
  public static <T> T callWithin(String prefix, long timeout, TimeUnit unit, Callable<T> task)
      throws TimeoutException, ExecutionException, InterruptedException {
    FutureTask<T> future = new FutureTask<>(task);
    named(prefix).newThread(future).start();
    try {
      return future.get(timeout, unit);
    } catch (TimeoutException | InterruptedException e) {
      future.cancel(true);
      throw e;
    }
  }
}
