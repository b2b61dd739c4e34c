package io.iam.bench.load;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.iam.core.engine.StallCause;

/**
 * The counters of an IAM tree's shape that {@code iam load} reports after each phase, picked from a
 * target's {@link LoadTarget#properties()} by name. Every key is optional: an engine that lacks one
 * (RocksDB has only the stall time) simply has fewer, and nothing fails.
 *
 * <ul>
 *   <li>{@value #DEPTH}, {@value #MIXED_LEVEL} (the mixed level m), {@value #MAX_SEQUENCES} (the
 *       cap k on a node's sequences);
 *   <li>per level {@code N}: {@code level.N.nodes}, {@code level.N.sequences}, {@code
 *       level.N.mean-sequences}, {@code level.N.max-sequences};
 *   <li>{@value #SCAN_COUNT} and {@value #SCAN_SEQUENCES}: scans and the sequences they touched, so
 *       far; {@link #sequencesPerScan()} divides them. {@value #SCAN_UNCACHED}: of those, the ones
 *       whose first block was not cached ({@link #uncachedSequencesPerScan()}), and {@value
 *       #SCAN_MAX_UNCACHED}, the most on one level in one scan, and per level {@code
 *       level.N.scan-max-uncached}, the most one scan found on that level.
 *   <li>the block cache's {@link #CACHE_COUNTERS}: hits, misses, bytes used, and for IAM's {@code
 *       PriorityBlockCache} its protected pool's hits, misses, bytes used and capacity, and the
 *       protected blocks demoted to the normal pool because the protected pool was full;
 *   <li>{@value #STALL_MICROS}: the time writers stood still waiting for background work, so far
 *       (IAM's stores: a full memtable with no room for another; RocksDB's {@code STALL_MICROS}
 *       ticker, which counts its stops and delays together), for IAM's stores split by {@link
 *       StallCause} ({@code stall.<cause>.micros}), with the waits of single writes per cause
 *       ({@link #stallWaitsByCause()}), and {@value #SLOWDOWN_MICROS}: the time IAM's
 *       stores delayed writers while level 0 was near its limit; {@value #FLUSH_WAIT_MICROS}, the time
 *       memtable flushes waited for the tree to make room;
 *   <li>{@value #GC_PAUSE_MICROS}, {@value #GC_COUNT} and {@value #GC_LONGEST_MICROS}: the JVM's
 *       garbage collections during the load and its settle, and the longest, added by the load itself;
 *   <li>in HBase, the writes the region servers held back, by HBase's own metrics: {@value
 *       #HBASE_UPDATES_BLOCKED_MICROS} and {@value #HBASE_BLOCKED_REQUESTS}; and for IAM's store
 *       engine {@value #FLUSH_WAIT_MICROS}, the time memstore flushes waited for the tree; for a stack
 *       policy, {@value #FLUSHED_WRITE_AMPLIFICATION} beside {@value #SIMULATED_WRITE_AMPLIFICATION},
 *       the simulator's figure for the same flushes.
 * </ul>
 *
 * @param values the counters found, in the order above, levels ascending
 */
public record EngineCounters(Map<String, Number> values) {

  public static final String DEPTH = "tree.depth";
  public static final String MIXED_LEVEL = "tree.mixed-level";
  public static final String MAX_SEQUENCES = "tree.max-sequences";
  static final String SCAN_COUNT = "scan.count";
  static final String SCAN_SEQUENCES = "scan.sequences";
  static final String SCAN_UNCACHED = "scan.uncached-sequences";
  static final String SCAN_MAX_UNCACHED = "scan.max-uncached-per-level";
  static final String STALL_MICROS = "stall.micros";
  static final String SLOWDOWN_MICROS = "slowdown.micros";
  static final String PROTECTED_OVERFLOWS = "block-cache.protected-overflows";
  /** HBase's {@code updatesBlockedTime}: updates waited for the global memstore, in microseconds. */
  public static final String HBASE_UPDATES_BLOCKED_MICROS = "hbase.updates-blocked.micros";
  /** HBase's {@code blockedRequestCount}: writes a region refused while its memstore was over its blocking size. */
  public static final String HBASE_BLOCKED_REQUESTS = "hbase.blocked-requests";
  /** Bytes the store wrote (flushes and compactions) over the bytes it flushed. */
  public static final String FLUSHED_WRITE_AMPLIFICATION = "flushed.write-amplification";
  /** The simulator's write amplification for the same policy on the same flushes (flushed, then merged). */
  public static final String SIMULATED_WRITE_AMPLIFICATION = "simulated.write-amplification";
  /** IAM's HBase store engine: the time memstore flushes waited for level 1 of the tree, in microseconds. */
  public static final String FLUSH_WAIT_MICROS = "flush-wait.micros";
  /** The JVM's garbage-collection time during the load and its settle ({@link GcPauses}). */
  public static final String GC_PAUSE_MICROS = "jvm.gc-pause.micros";
  /** The JVM's garbage collections during the load and its settle. */
  public static final String GC_COUNT = "jvm.gc.count";
  /** The longest of those collections. */
  public static final String GC_LONGEST_MICROS = "jvm.gc-longest.micros";

  /** The block cache's counters, and for IAM's pool those of its protected part. */
  static final List<String> CACHE_COUNTERS = List.of("block-cache.hits", "block-cache.misses",
      "block-cache.used-bytes", "block-cache.protected-hits", "block-cache.protected-misses",
      "block-cache.protected-used-bytes", "block-cache.protected-capacity-bytes", "block-cache.demotions",
      "block-cache.protected-overflows");

  /** The per-level counters, in the order of the columns of {@link Level}. */
  static final List<String> LEVEL_COUNTERS = List.of("nodes", "sequences", "mean-sequences", "max-sequences");

  /** {@code level.N.scan-max-uncached}: per level, the most uncached sequences one scan found there. */
  private static final Pattern SCAN_MAX_UNCACHED_AT = Pattern.compile("level\\.\\d+\\.scan-max-uncached");

  private static final Pattern LEVEL_KEY =
      Pattern.compile("level\\.(\\d+)\\.(" + String.join("|", LEVEL_COUNTERS) + ")");

  /** No counters: a target without a properties map. */
  public static final EngineCounters NONE = new EngineCounters(Map.of());

  public EngineCounters {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** The counters above that {@code properties} holds; other keys are left out. */
  public static EngineCounters of(Map<String, Number> properties) {
    Map<String, Number> picked = new LinkedHashMap<>();
    for (String key : List.of(DEPTH, MIXED_LEVEL, MAX_SEQUENCES)) {
      pick(properties, key, picked);
    }
    for (int level : levelNumbers(properties.keySet())) {
      for (String counter : LEVEL_COUNTERS) {
        pick(properties, levelKey(level, counter), picked);
      }
    }
    for (String key : List.of(SCAN_COUNT, SCAN_SEQUENCES, SCAN_UNCACHED, SCAN_MAX_UNCACHED)) {
      pick(properties, key, picked);
    }
    properties.keySet().stream().filter(k -> SCAN_MAX_UNCACHED_AT.matcher(k).matches())
        .sorted(java.util.Comparator.comparingInt(k -> Integer.parseInt(k.split("\\.")[1])))
        .forEach(k -> pick(properties, k, picked));
    for (String key : CACHE_COUNTERS) {
      pick(properties, key, picked);
    }
    pick(properties, STALL_MICROS, picked);
    for (StallCause cause : StallCause.values()) {
      pick(properties, cause.property(), picked);
      pick(properties, cause.waitsProperty(), picked);
      for (long millis : StallCause.WAIT_BOUNDS_MILLIS) {
        pick(properties, cause.waitsAtLeastProperty(millis), picked);
      }
      pick(properties, cause.longestProperty(), picked);
    }
    pick(properties, SLOWDOWN_MICROS, picked);
    for (String key : List.of(HBASE_UPDATES_BLOCKED_MICROS, HBASE_BLOCKED_REQUESTS, FLUSH_WAIT_MICROS,
        FLUSHED_WRITE_AMPLIFICATION, SIMULATED_WRITE_AMPLIFICATION)) {
      pick(properties, key, picked);
    }
    return new EngineCounters(picked);
  }

  private static void pick(Map<String, Number> from, String key, Map<String, Number> to) {
    Number value = from.get(key);
    if (value != null) {
      to.put(key, value);
    }
  }

  /** The levels that per-level counters among {@code keys} name, ascending. */
  private static SortedSet<Integer> levelNumbers(Set<String> keys) {
    SortedSet<Integer> levels = new TreeSet<>();
    for (String key : keys) {
      Matcher m = LEVEL_KEY.matcher(key);
      if (m.matches()) {
        levels.add(Integer.parseInt(m.group(1)));
      }
    }
    return levels;
  }

  static String levelKey(int level, String counter) {
    return "level." + level + "." + counter;
  }

  /** {@code scan.sequences / scan.count}, if the engine counts both and has scanned. */
  public OptionalDouble sequencesPerScan() {
    return perScan(SCAN_SEQUENCES);
  }

  /** {@code scan.uncached-sequences / scan.count}, if the engine counts both and has scanned. */
  public OptionalDouble uncachedSequencesPerScan() {
    return perScan(SCAN_UNCACHED);
  }

  private OptionalDouble perScan(String key) {
    Number count = values.get(SCAN_COUNT);
    Number sum = values.get(key);
    if (count == null || sum == null || count.longValue() <= 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(sum.doubleValue() / count.longValue());
  }

  /** These counters with {@code key} set to {@code value}. */
  public EngineCounters with(String key, Number value) {
    Map<String, Number> more = new LinkedHashMap<>(values);
    more.put(key, value);
    return new EngineCounters(more);
  }

  /** The time writers stood still for each cause the engine counts, in microseconds, where not 0. */
  public Map<StallCause, Long> stallMicrosByCause() {
    Map<StallCause, Long> out = new java.util.EnumMap<>(StallCause.class);
    for (StallCause cause : StallCause.values()) {
      Number micros = values.get(cause.property());
      if (micros != null && micros.longValue() > 0) {
        out.put(cause, micros.longValue());
      }
    }
    return out;
  }

  /**
   * How long single writes stood still for one cause: how many did, how many of them at least each
   * of {@link StallCause#WAIT_BOUNDS_MILLIS}, and the longest.
   *
   * @param atLeast per bound of {@link StallCause#WAIT_BOUNDS_MILLIS}, in its order
   */
  public record StallWaits(StallCause cause, long waits, List<Long> atLeast, long longestMicros) {}

  /** For each cause the engine counts the waits of and some write waited for, those waits. */
  public List<StallWaits> stallWaitsByCause() {
    List<StallWaits> out = new ArrayList<>();
    for (StallCause cause : StallCause.values()) {
      Number waits = values.get(cause.waitsProperty());
      if (waits == null || waits.longValue() <= 0) {
        continue;
      }
      List<Long> atLeast = new ArrayList<>();
      for (long millis : StallCause.WAIT_BOUNDS_MILLIS) {
        Number n = values.get(cause.waitsAtLeastProperty(millis));
        atLeast.add(n == null ? 0 : n.longValue());
      }
      Number longest = values.get(cause.longestProperty());
      out.add(new StallWaits(cause, waits.longValue(), List.copyOf(atLeast), longest == null ? 0 : longest.longValue()));
    }
    return out;
  }

  /** The value of a counter, or null if the engine has none of that name. */
  public Number get(String key) {
    return values.get(key);
  }

  /** The levels that have a per-level counter other than 0, ascending. */
  public List<Level> levels() {
    List<Level> out = new ArrayList<>();
    for (int level : levelNumbers(values.keySet())) {
      List<Number> counters = new ArrayList<>();
      boolean nonZero = false;
      for (String counter : LEVEL_COUNTERS) {
        Number value = values.get(levelKey(level, counter));
        counters.add(value);
        nonZero |= value != null && value.doubleValue() != 0;
      }
      if (nonZero) {
        out.add(new Level(level, counters.get(0), counters.get(1), counters.get(2), counters.get(3)));
      }
    }
    return out;
  }

  /**
   * One level's counters; each is null where the engine has none.
   *
   * @param level the level number
   * @param nodes {@code level.N.nodes}
   * @param sequences {@code level.N.sequences}
   * @param meanSequences {@code level.N.mean-sequences}
   * @param maxSequences {@code level.N.max-sequences}
   */
  public record Level(int level, Number nodes, Number sequences, Number meanSequences, Number maxSequences) {}
}
