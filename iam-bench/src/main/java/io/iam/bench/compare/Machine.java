package io.iam.bench.compare;

import static io.iam.bench.util.Sizes.human;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Locale;

/**
 * The machine a comparison ran on, as this JVM sees it.
 *
 * @param memoryBytes physical memory; -1 if the JVM does not tell
 * @param loadAverage the system load average over the last minute; negative if not available
 */
record Machine(int cores, long memoryBytes, String java, String os, double loadAverage) {

  static Machine now() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    long memory = os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getTotalMemorySize() : -1;
    String java = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
        + " (" + System.getProperty("java.vendor") + ")";
    String system = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
        + System.getProperty("os.arch");
    return new Machine(Runtime.getRuntime().availableProcessors(), memory, java, system, os.getSystemLoadAverage());
  }

  /** The load average now, for the end of a run. */
  static double loadAverageNow() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /** "2 cores, 23.44 GiB memory, OpenJDK 64-Bit Server VM 17.0.15+6 (Debian), Linux 6.1.0 amd64". */
  String describe() {
    return String.format(Locale.ROOT, "%d cores, %s memory, %s, %s", cores,
        memoryBytes < 0 ? "unknown" : human(memoryBytes), java, os);
  }

  void putJson(ObjectNode o) {
    o.put("cores", cores);
    o.put("memoryBytes", memoryBytes);
    o.put("java", java);
    o.put("os", os);
    o.put("loadAverageAtStart", loadAverage);
  }
}
