package io.iam.core.policy;

import io.iam.core.option.InvalidOptionsException;
import io.iam.core.option.OptionTable;
import io.iam.core.option.OptionValues;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The registry of every stack policy by name. Adapters and the command line create policies only
 * through here, so a name or option means the same thing everywhere.
 */
public final class MergePolicies {

  /** A registered policy: its name, a one-line summary, its option table and its constructor. */
  public record Descriptor(
      String name,
      String summary,
      boolean depthBounded,
      OptionTable options,
      Function<OptionValues, MergePolicy> factory) {

    /** Builds the policy from text options, validated against {@link #options()}. */
    public MergePolicy create(Map<String, String> given) {
      return factory.apply(options.parse(given));
    }
  }

  private static final List<Descriptor> ALL =
      List.of(
          new Descriptor(ConstantPolicy.NAME,
              "below k components add the flush, at k merge everything", true,
              ConstantPolicy.OPTIONS, ConstantPolicy::new),
          new Descriptor(BigtablePolicy.NAME,
              "at k components merge the newest ones until each is longer than all newer together",
              true, BigtablePolicy.OPTIONS, BigtablePolicy::new),
          new Descriptor(ExploringPolicy.NAME,
              "HBase's default: merge the best contiguous run whose sizes are within a ratio", true,
              ExploringPolicy.OPTIONS, ExploringPolicy::new),
          new Descriptor(MinLatencyPolicy.NAME,
              "static schedule with the least worst-case write amplification for depth k", true,
              MinLatencyPolicy.OPTIONS, MinLatencyPolicy::new),
          new Descriptor(BinomialPolicy.NAME,
              "static schedule like minlatency that keeps fewer components on short runs", true,
              BinomialPolicy.OPTIONS, BinomialPolicy::new),
          new Descriptor(IamStackPolicy.NAME,
              "IAM's m/k rule as a stack: appends within M/k, at most k at the boundary, leveled below",
              true, IamStackPolicy.OPTIONS, IamStackPolicy::new),
          new Descriptor(PrefixPolicy.NAME,
              "AsterixDB's prefix policy: merge small components once they add up to a size cap",
              false, PrefixPolicy.OPTIONS, PrefixPolicy::new),
          new Descriptor(ConcurrentPolicy.NAME,
              "AsterixDB's default: merge the oldest window whose oldest component is within a ratio of the rest",
              false, ConcurrentPolicy.OPTIONS, ConcurrentPolicy::new),
          new Descriptor(SizeTieredPolicy.NAME,
              "RocksDB universal-style tiering by size ratio and space amplification", false,
              SizeTieredPolicy.OPTIONS, SizeTieredPolicy::new),
          new Descriptor(LevelingPolicy.NAME,
              "one run per level under T^i flushes; a flush merges into each level it fills", false,
              LevelingPolicy.OPTIONS, LevelingPolicy::new),
          new Descriptor(TieringPolicy.NAME,
              "up to T-1 runs of T^(i-1) flushes per level; a level that fills is merged into one run", false,
              TieringPolicy.OPTIONS, TieringPolicy::new));

  private MergePolicies() {}

  /** Every registered policy, in a fixed order. */
  public static List<Descriptor> all() {
    return ALL;
  }

  /** The policy names, in the order of {@link #all()}. */
  public static List<String> names() {
    return ALL.stream().map(Descriptor::name).toList();
  }

  /**
   * Looks a policy up by name, ignoring case.
   *
   * @throws InvalidOptionsException naming the unknown policy and the known ones
   */
  public static Descriptor descriptor(String name) {
    String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (Descriptor d : ALL) {
      if (d.name().equals(wanted)) {
        return d;
      }
    }
    throw new InvalidOptionsException(
        "invalid policy",
        List.of("unknown policy '" + name + "' (known: " + String.join(", ", names()) + ")"));
  }

  /** Creates the named policy from text options; see {@link Descriptor#create(Map)}. */
  public static MergePolicy create(String name, Map<String, String> options) {
    return descriptor(name).create(options);
  }
}
