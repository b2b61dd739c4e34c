package io.iam.core.util;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.util.concurrent.ThreadFactory;

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
}
