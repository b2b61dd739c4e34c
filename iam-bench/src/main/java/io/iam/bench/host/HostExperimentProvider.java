package io.iam.bench.host;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Hosts of {@code iam host-experiment}, listed in {@code
 * META-INF/services/io.iam.bench.host.HostExperimentProvider} of the host's module.
 */
public interface HostExperimentProvider {

  /** The hosts this provider runs, by name. */
  Map<String, HostExperiment> hosts();

  /** Every host on the class path, by name. */
  static Map<String, HostExperiment> all() {
    Map<String, HostExperiment> hosts = new TreeMap<>();
    for (HostExperimentProvider p : ServiceLoader.load(HostExperimentProvider.class)) {
      hosts.putAll(p.hosts());
    }
    return hosts;
  }
}
