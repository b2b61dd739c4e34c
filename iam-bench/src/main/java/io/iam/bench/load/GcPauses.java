package io.iam.bench.load;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's garbage collections from a starting point: how many ran, how long they took, summed
 * over every collector's {@link GarbageCollectorMXBean} (with G1 on Java 17, its young and full
 * collections, whose time is their pauses), and the longest one, from the duration in the
 * collectors' notifications (whole milliseconds, like the totals, which the collectors account on
 * their own: the two may differ by a millisecond). Measured in the JVM the load runs in, so it counts the client and, for an
 * in-process host such as HBase's mini cluster, the server too. {@link #close()} stops listening.
 */
final class GcPauses implements AutoCloseable {

  private final long startCount;
  private final long startMillis;
  private final AtomicLong longestMillis = new AtomicLong();
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener = this::collected;

  private GcPauses() {
    this.startCount = count();
    this.startMillis = millis();
    for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (bean instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        emitters.add(emitter);
      }
    }
  }

  /** Starts counting now. */
  static GcPauses start() {
    return new GcPauses();
  }

  /** Collections since {@link #start()}. */
  long collections() {
    return count() - startCount;
  }

  /** Microseconds collections took since {@link #start()}. */
  long micros() {
    return (millis() - startMillis) * 1000;
  }

  /** Microseconds the longest collection since {@link #start()} took; 0 if none was reported. */
  long longestMicros() {
    return longestMillis.get() * 1000;
  }

  private void collected(Notification n, Object handback) {
    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())
        && n.getUserData() instanceof CompositeData data) {
      long duration = GarbageCollectionNotificationInfo.from(data).getGcInfo().getDuration();
      longestMillis.accumulateAndGet(duration, Math::max);
    }
  }

  @Override
  public void close() {
    for (NotificationEmitter emitter : emitters) {
      try {
        emitter.removeNotificationListener(listener);
      } catch (ListenerNotFoundException e) {
        // already gone
      }
    }
  }

  private static long count() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(b -> Math.max(0, b.getCollectionCount())).sum();
  }

  private static long millis() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(b -> Math.max(0, b.getCollectionTime())).sum();
  }
}
