package io.iam.core.engine;

import java.util.List;

/**
 * Why writers stood still ({@link Statistics#stallMicros(StallCause)}): what a writer that found
 * the memtable full, with no room for another, was waiting for.
 */
public enum StallCause {
  /** Level 0 held {@code level0-stop-trigger} files: the leveled trees wait for its compaction. */
  LEVEL0_FULL("level0-full"),
  /**
   * The memtable flush could not start: the level-1 nodes it writes into were busy or full (node
   * trees), so it waited for the tree's jobs to make room.
   */
  FLUSH_WAITS_FOR_TREE("flush-waits-for-tree"),
  /** {@code max-immutable-memtables} memtables were full and their flush was being written. */
  FLUSH_RUNNING("flush-running");

  /**
   * The lengths, in milliseconds, against which the waits of single writes are counted ({@link
   * #waitsAtLeastProperty}).
   */
  public static final List<Long> WAIT_BOUNDS_MILLIS = List.of(10L, 100L, 500L);

  private final String key;

  StallCause(String key) {
    this.key = key;
  }

  /** The name in {@link Statistics#asMap()}: {@code stall.<key>.micros}. */
  public String key() {
    return key;
  }

  /** {@code stall.<key>.micros}, this cause's entry in {@link Statistics#asMap()}. */
  public String property() {
    return "stall." + key + ".micros";
  }

  /** {@code stall.<key>.waits}: how many writes stood still for this cause. */
  public String waitsProperty() {
    return "stall." + key + ".waits";
  }

  /** {@code stall.<key>.waits-<millis>ms}: of those writes, the ones that stood still at least {@code millis} ms. */
  public String waitsAtLeastProperty(long millis) {
    return "stall." + key + ".waits-" + millis + "ms";
  }

  /** {@code stall.<key>.longest-micros}: the longest that one write stood still for this cause. */
  public String longestProperty() {
    return "stall." + key + ".longest-micros";
  }
}
