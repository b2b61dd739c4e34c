package io.iam.bench.load;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's garbage collections from a starting point: how many ran and how long they took, summed
 * over every collector's {@link GarbageCollectorMXBean} (with G1 on Java 17, its young and full
 * collections, whose time is their pauses). Measured in the JVM the load runs in, so it counts the
 * client and, for an in-process host such as HBase's mini cluster, the server too.
 */
final class GcPauses {

  private final long startCount;
  private final long startMillis;

  private GcPauses(long count, long millis) {
    this.startCount = count;
    this.startMillis = millis;
  }

  /** Starts counting now. */
  static GcPauses start() {
    return new GcPauses(count(), millis());
  }

  /** Collections since {@link #start()}. */
  long collections() {
    return count() - startCount;
  }

  /** Microseconds collections took since {@link #start()}. */
  long micros() {
    return (millis() - startMillis) * 1000;
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
