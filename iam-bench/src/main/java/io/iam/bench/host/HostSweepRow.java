package io.iam.bench.host;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * One point of a host sweep as its {@code points.jsonl} line keeps it: what the sweep's summary
 * and charts need, so that a sweep resumed in the same directory draws every point, old and new.
 *
 * @param policy the policy's name
 * @param k its k, or null for a baseline at its defaults
 * @param flushes the flushes the host made (of each partition, for a store partitioned over nodes)
 * @param bytesFlushed the bytes they wrote
 * @param writeAmplification measured in the host
 * @param simulatedWriteAmplification the simulator's, on the same flushes
 * @param averageComponents measured in the host
 * @param simulatedAverageComponents the simulator's
 */
public record HostSweepRow(String policy, Integer k, int flushes, long bytesFlushed, double writeAmplification,
    double simulatedWriteAmplification, double averageComponents, double simulatedAverageComponents) {

  /** The row of a point just run. */
  public static HostSweepRow of(HostPoint p) {
    return new HostSweepRow(p.point().policy(), p.point().k(), p.run().flushesPerNode(), p.run().bytesFlushed(),
        p.run().writeAmplification(), p.simulated().writeAmplification(), p.run().averageComponents(),
        p.simulated().averageComponents());
  }

  /**
   * The row of a {@code points.jsonl} line.
   *
   * @throws IOException naming the field a line lacks
   */
  public static HostSweepRow fromJson(JsonNode line) throws IOException {
    for (String field : new String[] {"policy", "flushes", "bytesFlushed", "writeAmplification", "averageComponents"}) {
      if (!line.hasNonNull(field)) {
        throw new IOException("a sweep point without " + field + ": " + line);
      }
    }
    if (!line.path("simulated").hasNonNull("writeAmplification")) {
      throw new IOException("a sweep point without the simulator's figures: " + line);
    }
    JsonNode sim = line.path("simulated");
    return new HostSweepRow(line.path("policy").asText(), line.hasNonNull("k") ? line.path("k").asInt() : null,
        line.path("flushes").asInt(), line.path("bytesFlushed").asLong(), line.path("writeAmplification").asDouble(),
        sim.path("writeAmplification").asDouble(), line.path("averageComponents").asDouble(),
        sim.path("averageComponents").asDouble());
  }

  /** {@code binomial k=6}, or the baseline's name, as {@link HostSweepPlan.Point#label()}. */
  public String label() {
    return new HostSweepPlan.Point(policy, k).label();
  }

  /** (measured − simulated) / simulated write amplification; 0 if the simulator wrote nothing. */
  public double writeAmplificationDifference() {
    return simulatedWriteAmplification == 0 ? 0 : (writeAmplification - simulatedWriteAmplification) / simulatedWriteAmplification;
  }

  /** Measured minus simulated average component count. */
  public double componentsDifference() {
    return averageComponents - simulatedAverageComponents;
  }
}
