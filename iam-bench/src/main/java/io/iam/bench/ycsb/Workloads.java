package io.iam.bench.ycsb;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's core workloads A to F, exactly as YCSB 0.17.0 ships them, and the IAM paper's workload G
 * (section 6.5: workload E with scans of up to 10,000 records), read from the resources {@code
 * /workloads/workload<letter>}. The command line sets {@code recordcount} and {@code
 * operationcount} on top of them; everything else (field count 10, field length 100, so 1 KiB
 * records) is YCSB's default.
 */
public final class Workloads {

  /** The workload letters, in order. */
  public static final List<String> NAMES = List.of("a", "b", "c", "d", "e", "f", "g");

  private static boolean measurementsSet;

  private Workloads() {}

  /**
   * The properties of workload {@code name} (a letter of {@link #NAMES}, any case).
   *
   * @throws IllegalArgumentException if there is no such workload; the message lists them
   */
  public static Properties of(String name) {
    String letter = name.trim().toLowerCase(java.util.Locale.ROOT);
    if (!NAMES.contains(letter)) {
      throw new IllegalArgumentException("unknown workload '" + name + "'; available: " + String.join(", ", NAMES));
    }
    Properties p = new Properties();
    String resource = "/workloads/workload" + letter;
    try (InputStream in = Workloads.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("resource " + resource + " is missing from the jar");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
    return p;
  }

  /**
   * A {@link CoreWorkload} initialised from {@code properties}, that times each read-modify-write on a
   * {@link TimedDb}. YCSB's workload times its
   * read-modify-writes into the process-wide {@link Measurements}, which needs properties before
   * first use; YCSB's {@code Client} sets them, so this does when nobody did. IAM's own figures
   * come from the run's own histograms, not from those measurements.
   *
   * @throws WorkloadException if YCSB refuses a property
   */
  public static CoreWorkload coreWorkload(Properties properties) throws WorkloadException {
    synchronized (Measurements.class) {
      if (!measurementsSet) {
        Measurements.setProperties(new Properties());
        measurementsSet = true;
      }
    }
    CoreWorkload workload = new TimedWorkload();
    workload.init(properties);
    return workload;
  }
}
