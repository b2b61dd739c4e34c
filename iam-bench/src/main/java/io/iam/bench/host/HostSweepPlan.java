package io.iam.bench.host;

import io.iam.core.option.InvalidOptionsException;
import io.iam.core.policy.MergePolicies;
import io.iam.core.policy.PolicyOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The points of {@code iam host-experiment --sweep}, after the bounded-depth paper's Fig. 2: every
 * depth-bounded policy at every k, then the baselines (AsterixDB's own policies by default) once
 * each at their defaults, since they have no k. Pure.
 *
 * @param points in the order they run
 */
public record HostSweepPlan(List<Point> points) {

  /** The depth-bounded policies of a full sweep. */
  public static final List<String> POLICIES =
      List.of("constant", "bigtable", "exploring", "minlatency", "binomial", "iam-stack");
  /** The k of a full sweep, as in the paper. */
  public static final List<Integer> KS = List.of(3, 4, 5, 6, 7, 8, 10);
  /** The baselines of a full sweep: AsterixDB's prefix policy and its default, concurrent. */
  public static final List<String> BASELINES = List.of("prefix", "concurrent");

  /**
   * One run of the sweep.
   *
   * @param policy the policy's name
   * @param k its {@code max-components}, or null for a baseline at its defaults
   */
  public record Point(String policy, Integer k) {

    /** The policy's options under iam-core's keys: k, or none. */
    public Map<String, String> options() {
      return k == null ? Map.of() : Map.of(PolicyOptions.MAX_COMPONENTS.key(), k.toString());
    }

    /** {@code binomial k=6}, or the baseline's name. */
    public String label() {
      return k == null ? policy : policy + " k=" + k;
    }
  }

  public HostSweepPlan {
    points = List.copyOf(points);
  }

  /**
   * Every policy of {@code policies} at every k of {@code ks}, then every baseline.
   *
   * @throws InvalidOptionsException naming an unknown policy, a policy without k among {@code
   *     policies}, or a k out of the policies' range
   */
  public static HostSweepPlan of(List<String> policies, List<Integer> ks, List<String> baselines) {
    List<String> problems = new ArrayList<>();
    List<Point> points = new ArrayList<>();
    for (String policy : policies) {
      MergePolicies.Descriptor d = MergePolicies.descriptor(policy);
      if (d.options().find(PolicyOptions.MAX_COMPONENTS.key()).isEmpty()) {
        problems.add("policy " + d.name() + " has no k (max-components); give it as a baseline");
        continue;
      }
      for (int k : ks) {
        points.add(new Point(d.name(), k));
      }
    }
    for (String baseline : baselines) {
      if (baseline.isBlank()) {
        continue; // --baselines= gives none
      }
      points.add(new Point(MergePolicies.descriptor(baseline).name(), null));
    }
    for (int k : ks) {
      if (k < 1 || k > 64) {
        problems.add("k " + k + " is out of range: allowed 1 to 64");
      }
    }
    if (points.isEmpty()) {
      problems.add("the sweep has no point: give at least one policy and one k, or a baseline");
    }
    if (!problems.isEmpty()) {
      throw new InvalidOptionsException("invalid sweep", problems);
    }
    return new HostSweepPlan(points);
  }

  /** The full sweep: {@link #POLICIES} × {@link #KS}, then {@link #BASELINES}. */
  public static HostSweepPlan full() {
    return of(POLICIES, KS, BASELINES);
  }
}
