package io.iam.hbase;

import java.util.ArrayList;
import java.util.List;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;

/**
 * Collects the messages one logger of the mini cluster writes at WARN or above, while open. HBase
 * logs through reload4j, so the capture hooks that logger directly. Thread-safe.
 */
public final class LogCapture extends AppenderSkeleton implements AutoCloseable {

  private final Logger logger;
  private final List<String> messages = new ArrayList<>();

  private LogCapture(Logger logger) {
    this.logger = logger;
    setThreshold(Level.WARN);
    logger.addAppender(this);
  }

  /** Starts capturing what {@code type}'s logger writes at WARN or above. */
  public static LogCapture of(Class<?> type) {
    return new LogCapture(Logger.getLogger(type));
  }

  @Override
  protected synchronized void append(LoggingEvent event) {
    messages.add(event.getRenderedMessage());
  }

  /** The messages captured so far that contain {@code text}. */
  public synchronized List<String> containing(String text) {
    return messages.stream().filter(m -> m.contains(text)).toList();
  }

  @Override
  public void close() {
    logger.removeAppender(this);
  }

  @Override
  public boolean requiresLayout() {
    return false;
  }
}
